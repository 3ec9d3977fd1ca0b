import { severityFromScore, type WebsiteResult } from '@cadence-detect/plugin-sdk';
import { displayText } from './display-text.js';
import { pageScoreMeaning, strongestPageSignals } from './explain.js';
import { html, joinHtml, type SafeHtml } from './page/html.js';

const lines = (values: readonly SafeHtml[]): SafeHtml => joinHtml(values, '\n');

/** The HTML report's sections of a web page's result: the verdict, the strongest signals, each finding in its passage. */
export function websiteSections(r: WebsiteResult): SafeHtml {
  const rows = r.detections
    .slice(0, 500)
    .map(
      (d) =>
        html`<tr><td>${d.strategy}</td><td><span class="sev ${d.severity}">${d.severity}</span></td><td class="num">${d.score.toFixed(2)}</td><td>${d.message}${d.element ? html`<br><span class="muted">${passageInContext(d.element, d.message)}</span>` : ''}</td></tr>`,
    );
  const severity = severityFromScore(r.overall_score);
  return html`<h1>${r.url}</h1>
<p class="muted">final URL ${r.final_url} · ${r.metrics.words ?? 0} words</p>
<section class="verdict ${severity}" aria-label="Verdict">
<p><span class="score ${severity}">${r.assessment} · ${r.overall_score.toFixed(2)}</span></p>
${lines(pageScoreMeaning(r).map((line) => html`<p class="muted">${line}</p>`))}
</section>
${strongestSignalsList(r)}
<h2>Detections</h2>
${rows.length ? html`<table><thead><tr><th scope="col">Strategy</th><th scope="col">Severity</th><th scope="col">Score</th><th scope="col">Finding and passage</th></tr></thead><tbody>\n${lines(rows)}\n</tbody></table>` : html`<p>None.</p>`}`;
}

/**
 * A detection's passage (`path: "…excerpt…"`) with what it flagged marked: the phrase the message
 * quotes, when the excerpt holds it past its opening quote. Only the <mark> is markup.
 */
export function passageInContext(element: string, message: string): SafeHtml {
  const quoted = /"([^"]{2,80})"/.exec(message)?.[1];
  const text = displayText(element);
  if (!quoted) return html`${text}`;
  const needle = displayText(quoted);
  const at = text.toLowerCase().indexOf(needle.toLowerCase(), text.indexOf('"'));
  if (at < 0) return html`${text}`;
  return html`${text.slice(0, at)}<mark>${text.slice(at, at + needle.length)}</mark>${text.slice(at + needle.length)}`;
}

function strongestSignalsList(r: WebsiteResult): SafeHtml | '' {
  const strongest = strongestPageSignals(r);
  if (strongest.length === 0) return '';
  const items = strongest.map((s) => html`<li><strong>${s.strategy}</strong> ${s.score.toFixed(2)}: ${s.message}</li>`);
  return html`<h2>Strongest signals</h2>\n<p class="muted">Each against what the human pages of the development corpus show.</p>\n<ul>\n${lines(items)}\n</ul>`;
}
