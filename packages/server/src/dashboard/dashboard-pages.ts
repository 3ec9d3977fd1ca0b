import { html, pageShell, type SafeHtml } from '@cadence-detect/reports/page';
import { DASHBOARD_ASSETS, type DashboardAsset } from './dashboard-assets.js';

/**
 * Pages of the dashboard: only what the server itself serves (its own style sheet and script under
 * assets/); no CDN, no inline script, nothing else loads.
 */
export function dashboardPolicy(withScript: boolean): string {
  return `default-src 'none'; style-src 'self'; script-src ${withScript ? "'self'" : "'none'"}; connect-src 'self'; img-src data:; form-action 'self'; base-uri 'none'; frame-ancestors 'none'`;
}

/**
 * A dashboard view in the page shell every Cadence page shares (@cadence-detect/reports/page): the
 * style sheet and its one script, if it has one, by address. `root` leads from the page's path back
 * to the server's root (`../../` from /jobs/:id/report), so that the assets resolve under a path
 * prefix too. `title` is text.
 */
export function page(
  title: string,
  body: SafeHtml,
  script: DashboardAsset | null,
  root = '',
): { html: string; policy: string } {
  const shell = pageShell({
    title,
    kind: 'dashboard',
    style: { href: `${root}${DASHBOARD_ASSETS.style.path}` },
    body,
    script: script && { src: `${root}${script.path}` },
  });
  return { html: shell.html, policy: dashboardPolicy(script !== null) };
}

/**
 * The jobs page: the same for every request (what it shows, its script reads), built once per
 * form: with `scans` (a server with an API token) the form can also start an organization scan.
 */
export function dashboardPage(scans = false): { html: string; policy: string } {
  return (dashboards[scans ? 1 : 0] ??= buildDashboardPage(scans));
}
const dashboards: ({ html: string; policy: string } | undefined)[] = [];

function buildDashboardPage(scans: boolean): { html: string; policy: string } {
  const body = html`<header><h1>Cadence</h1><p class="muted" id="health" aria-live="polite"></p></header>
<main>
<section aria-labelledby="analyze-title">
<h2 id="analyze-title">Analyze</h2>
<form id="analyze">
<label>Kind<select id="analyze-kind"><option value="repository">repository</option><option value="website">page</option>${scans && html`<option value="organization">organization (github:owner, gitlab:group)</option>`}</select></label>
<label>URL or path<input id="analyze-url" type="text" inputmode="url" autocomplete="off" spellcheck="false" required size="50" placeholder="https://github.com/owner/repo" aria-describedby="analyze-status"></label>
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
  return page('Cadence', body, DASHBOARD_ASSETS.dashboard);
}

/** The token prompt, built once. */
export function loginPage(): { html: string; policy: string } {
  return (login ??= buildLoginPage());
}
let login: { html: string; policy: string } | undefined;

function buildLoginPage(): { html: string; policy: string } {
  const body = html`<main>
<h1>Cadence</h1>
<p>This server asks for its API token. It is exchanged for a session cookie (HttpOnly, SameSite=Strict) and is not kept in the page.</p>
<form id="login" method="post" action="session">
<label>API token<input id="token" name="token" type="password" autocomplete="current-password" required></label>
<button type="submit">Sign in</button>
</form>
<p id="login-status" role="status"></p>
</main>`;
  return page('Cadence: sign in', body, DASHBOARD_ASSETS.login);
}
