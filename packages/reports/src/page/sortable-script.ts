import { createHash } from 'node:crypto';
import { browserScriptFile } from '../browser-script-file.js';
import { bundledScript } from './bundled-script.js';

/**
 * Sortable tables (browser/sortable.ts, bundled at build time), for a page inlining it under its
 * hash as the report does its own: the organization report.
 */
export const SORTABLE_SCRIPT = bundledScript(browserScriptFile('sortable'));

/** The CSP source that lets exactly this script run. */
export const SORTABLE_SCRIPT_HASH = `'sha256-${createHash('sha256').update(SORTABLE_SCRIPT).digest('base64')}'`;
