import { DASHBOARD_SCRIPT, DASHBOARD_SCRIPT_HASH, LOGIN_SCRIPT, LOGIN_SCRIPT_HASH } from './dashboard-script.js';

const STYLE = `:root{--fg:#1d2330;--muted:#4b5563;--bg:#fff;--line:#d0d5dd;--head:#f2f4f7;--link:#1849a9}
@media (prefers-color-scheme: dark){:root{--fg:#e4e7ec;--muted:#b0b8c4;--bg:#101419;--line:#344054;--head:#1d2530;--link:#84adff}}
body{font:15px/1.5 system-ui,sans-serif;margin:2rem auto;max-width:1180px;color:var(--fg);background:var(--bg);padding:0 1rem}
a{color:var(--link)}.muted{color:var(--muted)}table{border-collapse:collapse;width:100%;margin:1rem 0}
td,th{border-bottom:1px solid var(--line);padding:.35rem .5rem;text-align:left}th{background:var(--head)}
form{display:flex;flex-wrap:wrap;gap:.6rem;align-items:end}label{display:flex;flex-direction:column;font-size:.9rem}
input,select,button{font:inherit;color:var(--fg);background:var(--bg);border:1px solid var(--line);border-radius:4px;padding:.3rem .5rem}
:focus-visible{outline:3px solid var(--link);outline-offset:2px}`;

/** Pages of the dashboard: only what the server itself serves; no CDN, nothing else loads. */
export function dashboardPolicy(scriptHash: string): string {
  return `default-src 'none'; style-src 'unsafe-inline'; script-src ${scriptHash}; connect-src 'self'; img-src data:; form-action 'self'; base-uri 'none'; frame-ancestors 'none'`;
}

/** The page every dashboard view shares: head, style, body, and its one script if it has one. */
export function page(title: string, body: string, script: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>${title}</title>
<style>${STYLE}</style>
</head>
<body>
${body}
${script ? `<script>${script}</script>` : ''}
</body>
</html>
`;
}

export function dashboardPage(): { html: string; policy: string } {
  const body = `<header><h1>Cadence</h1><p class="muted" id="health" aria-live="polite"></p></header>
<main>
<section aria-labelledby="analyze-title">
<h2 id="analyze-title">Analyze</h2>
<form id="analyze">
<label>Kind<select id="analyze-kind"><option value="repository">repository</option><option value="website">page</option></select></label>
<label>URL<input id="analyze-url" type="url" required size="50" placeholder="https://github.com/owner/repo"></label>
<button type="submit">Analyze</button>
<span id="analyze-status" class="muted" aria-live="polite"></span>
</form>
</section>
<section aria-labelledby="jobs-title">
<h2 id="jobs-title">Jobs</h2>
<form id="jobs-filter" role="search" aria-label="Filter jobs">
<label>Status<select id="filter-status"><option value="">all</option><option>queued</option><option>running</option><option>completed</option><option>failed</option><option>cancelled</option><option>timeout</option></select></label>
<label>Repository or page<input id="filter-repo" type="search" placeholder="contains"></label>
<label>Source<select id="filter-source"><option value="">all</option><option value="webhook">webhooks</option><option>api</option><option>stream</option></select></label>
</form>
<p class="muted" id="jobs-status" aria-live="polite"></p>
<table><caption class="muted">The latest jobs; unfinished ones update as they run</caption>
<thead><tr><th scope="col">Job</th><th scope="col">Status</th><th scope="col">Repository or page</th><th scope="col">Source</th><th scope="col">Score</th><th scope="col">Assessment</th><th scope="col">Duration</th></tr></thead>
<tbody id="jobs-body"></tbody></table>
</section>
<section aria-labelledby="plugins-title"><h2 id="plugins-title">Strategies</h2><ul id="plugins"></ul></section>
</main>`;
  return { html: page('Cadence', body, DASHBOARD_SCRIPT), policy: dashboardPolicy(DASHBOARD_SCRIPT_HASH) };
}

export function loginPage(): { html: string; policy: string } {
  const body = `<main>
<h1>Cadence</h1>
<p>This server asks for its API token. It is exchanged for a session cookie (HttpOnly, SameSite=Strict) and is not kept in the page.</p>
<form id="login" method="post" action="session">
<label>API token<input id="token" name="token" type="password" autocomplete="current-password" required></label>
<button type="submit">Sign in</button>
</form>
<p id="login-status" role="status"></p>
</main>`;
  return { html: page('Cadence: sign in', body, LOGIN_SCRIPT), policy: dashboardPolicy(LOGIN_SCRIPT_HASH) };
}
