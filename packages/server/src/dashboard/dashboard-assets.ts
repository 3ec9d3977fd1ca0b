import { createHash } from 'node:crypto';
import { bundledScript, PAGE_STYLE } from '@cadence-detect/reports/page';
import { browserScriptFile } from '../browser-script-file.js';

/**
 * The dashboard's style sheet and scripts, served by the server itself under assets/ (no CDN).
 * Each name carries a hash of its content, so a browser may keep it for a year (`immutable`):
 * a new release serves new names, and the pages, which are never cached, point at them.
 */
export interface DashboardAsset {
  /** Relative to the server's root (and its path prefix): `assets/<name>.<hash>.<ext>`. */
  readonly path: string;
  readonly type: string;
  readonly body: string;
  /** A strong validator: the content hash, quoted. */
  readonly etag: string;
}

function asset(name: string, extension: 'css' | 'js', type: string, body: string): DashboardAsset {
  const hash = createHash('sha256').update(body).digest('hex').slice(0, 16);
  return { path: `assets/${name}.${hash}.${extension}`, type, body, etag: `"${hash}"` };
}

/** A page's script, browser/<name>.ts bundled at build time (scripts/bundle-browser-scripts.mjs). */
const script = (name: string): string => bundledScript(browserScriptFile(name));

export const DASHBOARD_ASSETS = {
  // The one style sheet of every Cadence page, which the report inlines (@cadence-detect/reports/page).
  style: asset('dashboard', 'css', 'text/css; charset=utf-8', PAGE_STYLE),
  dashboard: asset('dashboard', 'js', 'text/javascript; charset=utf-8', script('dashboard')),
  login: asset('login', 'js', 'text/javascript; charset=utf-8', script('login')),
  job: asset('job', 'js', 'text/javascript; charset=utf-8', script('job')),
} as const;

const BY_FILE = new Map<string, DashboardAsset>(
  Object.values(DASHBOARD_ASSETS).map((a) => [a.path.slice('assets/'.length), a]),
);

/** The asset a file name under assets/ names, exactly (old hashes are gone with their release). */
export function dashboardAsset(file: string): DashboardAsset | undefined {
  return BY_FILE.get(file);
}
