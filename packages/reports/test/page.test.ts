import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import {
  escapeHtml,
  html,
  isSafeHtml,
  joinHtml,
  pageShell,
  PAGE_STYLE,
  rawHtml,
  type SafeHtml,
} from '../src/page/index.js';
import { renderReport } from '../src/index.js';
import { REPORT_SCRIPT } from '../src/report-script.js';

const HOSTILE = `<script>alert("x")</script> & 'quotes'\u202e\u0007`;

describe('HTML that escapes by default (html``)', () => {
  it('escapes every interpolated string, in text and in attribute values, and drops control and bidi characters', () => {
    const fragment = html`<p title="${HOSTILE}">${HOSTILE}</p>`;
    expect(fragment.html).to.equal(
      '<p title="&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;quotes&#39; ">&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;quotes&#39; </p>',
    );
    expect(escapeHtml(HOSTILE)).to.equal('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;quotes&#39; ');
    // Line feeds and tabs stay (a page shows them as spaces); text without anything to escape is returned as it is.
    expect(escapeHtml('a\nb\tc')).to.equal('a\nb\tc');
  });

  it('takes fragments made by html (and rawHtml) as markup, once: nothing is escaped twice', () => {
    const cell = html`<td>${'a < b'}</td>`;
    expect(html`<tr>${cell}</tr>`.html).to.equal('<tr><td>a &lt; b</td></tr>');
    expect(html`<div>${rawHtml('<b>ours</b>')}</div>`.html).to.equal('<div><b>ours</b></div>');
    expect(isSafeHtml(cell)).to.equal(true);
    expect(isSafeHtml('<td>')).to.equal(false);
    // A plain string that looks like markup is still text.
    expect(html`${'<td>x</td>'}`.html).to.equal('&lt;td&gt;x&lt;/td&gt;');
  });

  it('joins lists, shows numbers, and shows nothing for null, undefined and false', () => {
    const items = ['<a>', 'b'].map((x) => html`<li>${x}</li>`);
    expect(html`<ul>${items}</ul>`.html).to.equal('<ul><li>&lt;a&gt;</li><li>b</li></ul>');
    expect(joinHtml(items, '\n').html).to.equal('<li>&lt;a&gt;</li>\n<li>b</li>');
    expect(html`${0} ${1.5} [${null}${undefined}${false}]`.html).to.equal('0 1.5 []');
    expect(html`${[['<', html`<br>`], 2]}`.html).to.equal('&lt;<br>2');
    expect(String(html`<i>${'&'}</i>`)).to.equal('<i>&amp;</i>');
  });

  it('refuses `true` and plain objects at compile time', () => {
    // @ts-expect-error `true` would show as the word: a condition must give false or markup.
    html`${true}`;
    // @ts-expect-error an object is neither text nor markup.
    html`${{ html: '<b>' }}`;
    const typed: SafeHtml = html``;
    expect(typed.html).to.equal('');
  });
});

describe('the page shell', () => {
  const body = html`<main><h1>${'T <1>'}</h1></main>`;

  it('draws the head, the title as text, the style sheet and the script inline or by address, and the page kind on <body>', () => {
    const inline = pageShell({
      title: 'A & <B>',
      kind: 'report',
      policy: "default-src 'none'",
      style: { inline: 'p{color:red}' },
      body,
      script: { inline: 'void 0;' },
    }).html;
    expect(inline).to.match(
      /^<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<meta name="viewport" content="width=device-width, initial-scale=1">\n<meta name="color-scheme" content="light dark">\n/,
    );
    expect(inline).to.contain(
      `<meta http-equiv="Content-Security-Policy" content="default-src 'none'">\n<title>A &amp; &lt;B&gt;</title>\n<style>p{color:red}</style>`,
    );
    expect(inline).to.contain(
      '<body class="report">\n<main><h1>T &lt;1&gt;</h1></main>\n<script>void 0;</script>\n</body>\n</html>\n',
    );
    const linked = pageShell({
      title: 'D',
      kind: 'dashboard',
      style: { href: 'assets/x.css' },
      body,
      script: { src: 'assets/"x".js' },
    }).html;
    expect(linked)
      .to.contain('<link rel="stylesheet" href="assets/x.css">')
      .and.contain('<script src="assets/&quot;x&quot;.js"></script>');
    expect(linked).to.contain('<body class="dashboard">').and.not.contain('Content-Security-Policy');
    expect(
      pageShell({ title: 'D', kind: 'dashboard', style: { href: 'a.css' }, body, script: null }).html,
    ).not.to.contain('<script');
  });

  it('refuses an inline script or style sheet that could end its element, and a policy that could end its attribute', () => {
    expect(() =>
      pageShell({ title: 't', kind: 'report', style: { inline: '' }, body, script: { inline: 'x("</SCRIPT>")' } }),
    ).to.throw(/may not contain <\/script/);
    expect(() => pageShell({ title: 't', kind: 'report', style: { inline: 'a{}</style><b>' }, body })).to.throw(
      /may not contain <\/style/,
    );
    expect(() =>
      pageShell({ title: 't', kind: 'report', policy: 'x" onload="y', style: { inline: '' }, body }),
    ).to.throw(/Content-Security-Policy/);
  });

  it('gives the report the one style sheet and its bundled, type-checked script (browser/report.ts, built into dist/browser/)', () => {
    const page = renderReport(
      {
        source_id: 'https://example.test/',
        source_type: 'web',
        url: 'https://example.test/',
        final_url: 'https://example.test/',
        overall_score: 0.2,
        suspicion_score: 0.2,
        assessment: 'Likely Human-Written',
        strategies_triggered: 0,
        detections: [],
        strategy_results: [],
        metrics: {},
      },
      'html',
    );
    expect(page).to.contain(`<style>${PAGE_STYLE}</style>`).and.contain('<body class="report">');
    expect(REPORT_SCRIPT).to.equal(readFileSync(new URL('../dist/browser/report.js', import.meta.url), 'utf8'));
    expect(REPORT_SCRIPT).to.contain('finding-controls');
    // The palette, light and dark, is the style sheet's, in one place.
    expect(PAGE_STYLE).to.contain('--link:#1849a9').and.contain('prefers-color-scheme: dark');
  });
});
