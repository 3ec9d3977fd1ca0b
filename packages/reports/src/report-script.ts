import { createHash } from 'node:crypto';
import { browserScriptFile } from './browser-script-file.js';
import { bundledScript } from './page/bundled-script.js';

/**
 * The report's only script (browser/report.ts, bundled at build time): sorting, filtering and
 * paging the findings table. Inline, and allowed by the page's Content-Security-Policy through its
 * hash, computed here from the bundle itself (nothing else can run).
 */
export const REPORT_SCRIPT = bundledScript(browserScriptFile('report'));

/** The CSP source that lets exactly this script run. */
export const REPORT_SCRIPT_HASH = `'sha256-${createHash('sha256').update(REPORT_SCRIPT).digest('base64')}'`;
