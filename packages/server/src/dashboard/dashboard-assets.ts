import { createHash } from 'node:crypto';
import { DASHBOARD_SCRIPT, JOB_SCRIPT, LOGIN_SCRIPT } from './dashboard-script.js';

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

const STYLE = `:root{--fg:#1d2330;--muted:#4b5563;--bg:#fff;--line:#d0d5dd;--head:#f2f4f7;--link:#1849a9}
@media (prefers-color-scheme: dark){:root{--fg:#e4e7ec;--muted:#b0b8c4;--bg:#101419;--line:#344054;--head:#1d2530;--link:#84adff}}
body{font:15px/1.5 system-ui,sans-serif;margin:2rem auto;max-width:1180px;color:var(--fg);background:var(--bg);padding:0 1rem}
a{color:var(--link)}.muted{color:var(--muted)}table{border-collapse:collapse;width:100%;margin:1rem 0}
td,th{border-bottom:1px solid var(--line);padding:.35rem .5rem;text-align:left}th{background:var(--head)}
form{display:flex;flex-wrap:wrap;gap:.6rem;align-items:end}label{display:flex;flex-direction:column;font-size:.9rem}
input,select,button{font:inherit;color:var(--fg);background:var(--bg);border:1px solid var(--line);border-radius:4px;padding:.3rem .5rem}
:focus-visible{outline:3px solid var(--link);outline-offset:2px}`;

function asset(name: string, extension: 'css' | 'js', type: string, body: string): DashboardAsset {
  const hash = createHash('sha256').update(body).digest('hex').slice(0, 16);
  return { path: `assets/${name}.${hash}.${extension}`, type, body, etag: `"${hash}"` };
}

export const DASHBOARD_ASSETS = {
  style: asset('dashboard', 'css', 'text/css; charset=utf-8', STYLE),
  dashboard: asset('dashboard', 'js', 'text/javascript; charset=utf-8', DASHBOARD_SCRIPT),
  login: asset('login', 'js', 'text/javascript; charset=utf-8', LOGIN_SCRIPT),
  job: asset('job', 'js', 'text/javascript; charset=utf-8', JOB_SCRIPT),
} as const;

const BY_FILE = new Map<string, DashboardAsset>(Object.values(DASHBOARD_ASSETS).map((a) => [a.path.slice('assets/'.length), a]));

/** The asset a file name under assets/ names, exactly (old hashes are gone with their release). */
export function dashboardAsset(file: string): DashboardAsset | undefined {
  return BY_FILE.get(file);
}
