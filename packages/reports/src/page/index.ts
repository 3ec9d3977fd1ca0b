/**
 * `@cadence-detect/reports/page`: what every Cadence page is built with (the report and the
 * server's dashboard): HTML that escapes by default, the page shell, the one style sheet, and the
 * reading of a bundled browser script. Light: it loads no report.
 */
export { escapeHtml, html, isSafeHtml, joinHtml, rawHtml, type HtmlValue, type SafeHtml } from './html.js';
export { pageShell, type PageShell } from './page-shell.js';
export { PAGE_STYLE } from './page-style.js';
export { bundledScript } from './bundled-script.js';
export { SORTABLE_SCRIPT, SORTABLE_SCRIPT_HASH } from './sortable-script.js';
