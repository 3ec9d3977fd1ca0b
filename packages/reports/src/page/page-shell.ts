import { html, rawHtml, type SafeHtml } from './html.js';

/**
 * The page every Cadence view is drawn in: the HTML report and the dashboard's pages. One head (the
 * character set, the viewport, both colour schemes), the one style sheet (PAGE_STYLE), and at most
 * one script, the page's own.
 */
export interface PageShell {
  /** Text: escaped like any other. */
  readonly title: string;
  /** Which page's rules of the style sheet apply (the class of <body>). */
  readonly kind: 'report' | 'dashboard';
  /**
   * The Content-Security-Policy as a <meta> element, for a page that must carry its own (a report
   * opened from file:// has no response headers). The server sends the dashboard's as a header.
   */
  readonly policy?: string;
  /** The style sheet inline (a self-contained page) or by its address. */
  readonly style: { readonly inline: string } | { readonly href: string };
  readonly body: SafeHtml;
  /** The page's script: inline (allowed by its hash) or by its address; none if absent. */
  readonly script?: { readonly inline: string } | { readonly src: string } | null;
}

export function pageShell(page: PageShell): SafeHtml {
  const style =
    'inline' in page.style
      ? html`<style>${inlineOnly(page.style.inline, 'style')}</style>`
      : html`<link rel="stylesheet" href="${page.style.href}">`;
  const script = !page.script
    ? ''
    : 'inline' in page.script
      ? html`<script>${inlineOnly(page.script.inline, 'script')}</script>`
      : html`<script src="${page.script.src}"></script>`;
  const policy =
    page.policy === undefined
      ? ''
      : html`<meta http-equiv="Content-Security-Policy" content="${policyAttribute(page.policy)}">\n`;
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
${policy}<title>${page.title}</title>
${style}
</head>
<body class="${page.kind}">
${page.body}
${script}
</body>
</html>
`;
}

/**
 * A style sheet or script of our own, inlined as it is: it must not be able to end its element
 * early (its build never writes `</style` or `</script`, and this keeps it so).
 */
function inlineOnly(source: string, element: 'style' | 'script'): SafeHtml {
  if (new RegExp(`</${element}`, 'i').test(source))
    throw new Error(`an inline ${element} may not contain </${element}`);
  return rawHtml(source);
}

/**
 * A policy is ours and holds quotes (`'none'`, `'sha256-…'`) that escaping would turn into entities
 * a test or a reader then has to decode: it goes in as written, and may hold nothing that could end
 * the attribute.
 */
function policyAttribute(policy: string): SafeHtml {
  if (/["<>&]/.test(policy)) throw new Error('a Content-Security-Policy may not contain ", <, > or &');
  return rawHtml(policy);
}
