import { expect } from 'chai';
import { createRequire } from 'node:module';
import type { Browser } from 'playwright-core';
import {
  makeTempDir,
  startCadenceServer,
  startHttpServer,
  type ServerProcess,
  type TempDir,
  type TestHttpServer,
} from '@cadence-detect/test-support';
import { serveRepositories, type GitFixtures } from '../server/fixtures.js';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { takeDashboardScreenshots } from './dashboard-pages.js';
import { launchChromium, PREREQUISITES_WAIT_MS } from './report-pages.js';

const TOKEN = 'dashboard-token-0123456789abcdef';
const require = createRequire(import.meta.url);

describe('the dashboard in a browser (headless Chromium, the real server)', function () {
  this.timeout(90_000);
  let work: TempDir;
  let git: GitFixtures;
  let server: ServerProcess;
  let browser: Browser;
  let slowSite: TestHttpServer;
  let releasePage: () => void = () => undefined;

  before(async function () {
    this.timeout(PREREQUISITES_WAIT_MS + this.timeout());
    // A page that answers only when the test lets it: the job stays running while the test looks.
    slowSite = await startHttpServer((_req, res) => {
      releasePage = () => {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.end(
          `<!doctype html><html lang="en"><head><title>Notes</title></head><body><main>${'<p>The station opened in 1911 and closed to passengers in 1966, though freight trains used the line for another decade.</p>'.repeat(12)}</main></body></html>`,
        );
      };
    });
    work = await makeTempDir('cadence-dashboard-');
    git = await serveRepositories(work.path);
    server = await startCadenceServer({
      cwd: work.path,
      config: { security: { allowed_networks: ['127.0.0.0/8'] }, strategies: { disabled: ['commit-model'] } },
      env: { CADENCE_API_TOKEN: TOKEN },
    });
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await server?.stop();
    await slowSite?.close();
    await git?.close();
    await work?.remove();
  });

  it('asks for the token once, keeps it in an HttpOnly SameSite=Strict cookie, never in a URL', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${server.url}/`);
    expect(await page.isVisible('#login')).to.equal(true);
    await page.fill('#token', 'not-the-token');
    await page.click('#login button');
    await page.waitForFunction(
      () =>
        ((
          globalThis as unknown as { document: { getElementById(id: string): { textContent: string } | null } }
        ).document.getElementById('login-status')?.textContent ?? '') !== '',
    );
    expect(await page.textContent('#login-status')).to.contain('not accepted');
    await page.fill('#token', TOKEN);
    await Promise.all([page.waitForSelector('#analyze'), page.click('#login button')]);
    const cookies = await context.cookies();
    const session = cookies.find((c) => c.name === 'cadence_session')!;
    expect(session).to.include({ httpOnly: true, sameSite: 'Strict' });
    expect(session.value).not.to.contain(TOKEN);
    expect(page.url()).not.to.contain(TOKEN);
    expect(
      await page.evaluate(() => (globalThis as unknown as { document: { cookie: string } }).document.cookie),
    ).to.equal('');
    await context.close();
  });

  it('shows a job submitted through the form in the list without a reload, then its verdict and its report page', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await signIn(page, `${server.url}/`);
    let reloaded = false;
    page.on('load', () => (reloaded = true));
    await page.fill('#analyze-url', git.daemon.url('acme/burst.git'));
    await page.click('#analyze button');
    const row = page.locator('#jobs-body tr', { hasText: 'acme/burst' }).first();
    await row.waitFor();
    // Progress updates the row's text in place: the link a user may be clicking is never replaced.
    await row
      .locator('a')
      .evaluate((a: unknown) => void ((a as { dataset: Record<string, string> }).dataset.kept = 'yes'));
    await page.waitForSelector('#jobs-body tr[data-status="completed"] a', { timeout: 30_000 });
    expect(await row.locator('a[data-kept="yes"]').count()).to.equal(1);
    expect(reloaded).to.equal(false);
    expect(await row.textContent()).to.match(/completed.*acme\/burst.*api.*\d\.\d\d.*likely_ai_generated/);
    await Promise.all([page.waitForURL(/\/jobs\/[0-9a-f-]+\/report$/), row.locator('a').click()]);
    expect(await page.textContent('h1')).to.equal('acme/burst');
    expect(await page.locator('#findings tbody tr').count()).to.be.greaterThan(0);
    await context.close();
  });

  it('adds a job started elsewhere (not from this page) to the list live, over the server\u2019s job feed', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await signIn(page, `${server.url}/`);
    await page.waitForFunction(
      () =>
        (
          globalThis as unknown as { document: { getElementById(id: string): { textContent: string } | null } }
        ).document.getElementById('jobs-status')?.textContent !== '',
    );
    let reloaded = false;
    page.on('load', () => (reloaded = true));
    const healthText = () =>
      page.evaluate(
        () =>
          (
            globalThis as unknown as { document: { getElementById(id: string): { textContent: string } | null } }
          ).document.getElementById('health')?.textContent ?? '',
      );
    await page.waitForFunction(() =>
      /processed/.test(
        (
          globalThis as unknown as { document: { getElementById(id: string): { textContent: string } | null } }
        ).document.getElementById('health')?.textContent ?? '',
      ),
    );
    const processedBefore = Number(/(\d+) processed/.exec(await healthText())?.[1] ?? NaN);
    const answer = await fetch(`${server.url}/api/analyze/repository`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url: git.daemon.url('acme/human.git') }),
    });
    expect(answer.status).to.equal(202);
    const { id } = (await answer.json()) as { id: string };
    // Well before the list's 30-second reread: only the feed can bring it this soon.
    await page.waitForSelector(`#jobs-body tr a[href$="${id}/report"]`, { timeout: 8_000 });
    await page.waitForSelector(`#jobs-body tr[data-status="completed"] a[href$="${id}/report"]`, { timeout: 30_000 });
    // The health line follows the jobs, well before the list's 30-second reread.
    await page.waitForFunction(
      (wanted) =>
        (globalThis as unknown as { document: { getElementById(id: string): { textContent: string } | null } }).document
          .getElementById('health')
          ?.textContent?.includes(`${wanted} processed`) ?? false,
      processedBefore + 1,
      { timeout: 8_000 },
    );
    expect(reloaded).to.equal(false);
    // The list's filters: by repository, status and source, without asking the server again.
    const visible = () => page.locator('#jobs-body tr:not([hidden])').allTextContents();
    await page.fill('#filter-repo', 'human');
    expect((await visible()).every((row) => row.includes('acme/human'))).to.equal(true);
    expect(await visible()).to.have.length.greaterThan(0);
    await page.fill('#filter-repo', '');
    await page.selectOption('#filter-status', 'failed');
    expect(await visible()).to.deep.equal([]);
    await page.selectOption('#filter-status', '');
    await page.selectOption('#filter-source', 'webhook');
    expect(await visible()).to.deep.equal([]);
    await page.selectOption('#filter-source', 'api');
    expect((await visible()).some((row) => row.includes('acme/human'))).to.equal(true);
    await context.close();
  });

  it('shows a running job\u2019s live progress on its page, then its verdict in the same page', async () => {
    // bypassCSP only so that the test can add axe-core to the page.
    const context = await browser.newContext({ bypassCSP: true });
    const page = await context.newPage();
    await signIn(page, `${server.url}/`);
    await page.selectOption('#analyze-kind', 'website');
    await page.fill('#analyze-url', slowSite.url('/notes'));
    await page.click('#analyze button');
    const row = page.locator('#jobs-body tr', { hasText: '/notes' }).first();
    await row.waitFor();
    await Promise.all([page.waitForURL(/\/jobs\/[0-9a-f-]+\/report$/), row.locator('a').click()]);
    await page.waitForSelector('#progress li');
    expect(await page.textContent('#status')).to.equal('running');
    expect(await page.textContent('#progress')).to.contain('start');
    expect(await seriousViolations(page)).to.deep.equal([]);
    const jobUrl = page.url();
    // A JSON client still gets the contract's 409 while the job runs.
    const cookie = (await context.cookies()).map((c) => `${c.name}=${c.value}`).join('; ');
    expect((await fetch(jobUrl, { headers: { cookie, accept: 'application/json' } })).status).to.equal(409);
    releasePage();
    await page.waitForSelector('section.verdict', { timeout: 30_000 });
    expect(page.url()).to.equal(jobUrl);
    expect(await page.textContent('h1')).to.contain('/notes');
    await context.close();
  });

  it('works under a path prefix (server.base_path), as behind a proxy that forwards /cadence/ unchanged', async () => {
    const prefixed = await startCadenceServer({
      cwd: work.path,
      config: {
        security: { allowed_networks: ['127.0.0.0/8'] },
        strategies: { disabled: ['commit-model'] },
        server: { base_path: '/cadence' },
      },
      env: { CADENCE_API_TOKEN: TOKEN },
    });
    try {
      expect((await fetch(`${prefixed.url}/health`)).status).to.equal(404);
      expect((await fetch(`${prefixed.url}/cadence/health`)).status).to.equal(200);
      const bare = await fetch(`${prefixed.url}/cadence`, { redirect: 'manual' });
      expect([bare.status, bare.headers.get('location')]).to.deep.equal([308, '/cadence/']);
      const context = await browser.newContext();
      const page = await context.newPage();
      await page.goto(`${prefixed.url}/cadence`);
      await page.fill('#token', TOKEN);
      await Promise.all([page.waitForSelector('#analyze'), page.click('#login button')]);
      expect((await context.cookies()).find((c) => c.name === 'cadence_session')!.path).to.equal('/cadence/');
      await page.fill('#analyze-url', git.daemon.url('acme/burst.git'));
      await page.click('#analyze button');
      await page.waitForSelector('#jobs-body tr[data-status="completed"] a', { timeout: 30_000 });
      await Promise.all([
        page.waitForURL(/\/cadence\/jobs\/[0-9a-f-]+\/report$/),
        page.locator('#jobs-body tr[data-status="completed"] a').first().click(),
      ]);
      expect(await page.textContent('h1')).to.equal('acme/burst');
      await context.close();
    } finally {
      await prefixed.stop();
    }
  });

  it('sends what is typed as the server takes it (a path too, not only a URL) and shows the server\u2019s refusal', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await signIn(page, `${server.url}/`);
    // This server keeps security.allow_local_paths off: the browser must not refuse first, the server says why.
    await page.fill('#analyze-url', work.path);
    await page.click('#analyze button');
    await page.waitForFunction(
      () =>
        ((
          globalThis as unknown as { document: { getElementById(id: string): { textContent: string } | null } }
        ).document.getElementById('analyze-status')?.textContent ?? '') !== '',
    );
    expect(await page.textContent('#analyze-status')).to.match(/local path/i);
    await context.close();
  });

  it('takes the dashboard\u2019s screenshots docs/ shows (pnpm screenshots refreshes them)', async () => {
    const written = await takeDashboardScreenshots(path.join(work.path, 'shots'), browser);
    expect(written.map((f) => path.basename(f))).to.deep.equal([
      'dashboard-sign-in.png',
      'dashboard.png',
      'dashboard-job-running.png',
    ]);
    for (const file of written)
      expect((await readFile(file)).subarray(0, 8).toString('hex')).to.equal('89504e470d0a1a0a');
  });

  it('refuses a cookie-authenticated change from another origin, and the guarded API without token or cookie', async () => {
    const login = await fetch(`${server.url}/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token: TOKEN }),
    });
    expect(login.status).to.equal(204);
    const cookie = login.headers.get('set-cookie')!.split(';')[0]!;
    const body = JSON.stringify({ url: git.daemon.url('acme/burst.git') });
    const crossSite = await fetch(`${server.url}/api/analyze/repository`, {
      method: 'POST',
      headers: { cookie, origin: 'https://evil.example', 'content-type': 'application/json' },
      body,
    });
    expect(crossSite.status).to.equal(403);
    const noOrigin = await fetch(`${server.url}/jobs/unknown/cancel`, { method: 'POST', headers: { cookie } });
    expect(noOrigin.status).to.equal(403);
    expect((await fetch(`${server.url}/jobs`, { headers: { cookie } })).status).to.equal(200);
    expect((await fetch(`${server.url}/jobs`)).status).to.equal(401);
    expect(
      (
        await fetch(`${server.url}/jobs`, {
          headers: { cookie: 'cadence_session=v1.9999999999.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' },
        })
      ).status,
    ).to.equal(401);
  });

  /** Opens `url` and signs in with the token, as a person does once per browser. */
  async function signIn(page: import('playwright-core').Page, url: string): Promise<void> {
    await page.goto(url);
    await page.fill('#token', TOKEN);
    await Promise.all([page.waitForSelector('#analyze'), page.click('#login button')]);
  }

  async function seriousViolations(page: import('playwright-core').Page): Promise<unknown[]> {
    await page.addScriptTag({ path: require.resolve('axe-core/axe.min.js') });
    const violations = await page.evaluate(async () => {
      const axe = (
        globalThis as unknown as { axe: { run: () => Promise<{ violations: { id: string; impact: string }[] }> } }
      ).axe;
      return (await axe.run()).violations.map((v) => ({ id: v.id, impact: v.impact }));
    });
    return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  }

  it('passes an axe-core accessibility check on the sign-in page and the dashboard', async () => {
    const context = await browser.newContext({ bypassCSP: true });
    const page = await context.newPage();
    const check = async (): Promise<unknown[]> => {
      await page.addScriptTag({ path: require.resolve('axe-core/axe.min.js') });
      const violations = await page.evaluate(async () => {
        const axe = (
          globalThis as unknown as { axe: { run: () => Promise<{ violations: { id: string; impact: string }[] }> } }
        ).axe;
        return (await axe.run()).violations.map((v) => ({ id: v.id, impact: v.impact }));
      });
      return violations.filter(
        (v) => (v as { impact: string }).impact === 'serious' || (v as { impact: string }).impact === 'critical',
      );
    };
    await page.goto(`${server.url}/`);
    expect(await check()).to.deep.equal([]);
    await page.fill('#token', TOKEN);
    await Promise.all([page.waitForSelector('#analyze'), page.click('#login button')]);
    await page.waitForFunction(
      () =>
        (
          globalThis as unknown as { document: { getElementById(id: string): { textContent: string } | null } }
        ).document.getElementById('jobs-status')?.textContent !== '',
    );
    expect(await check()).to.deep.equal([]);
    await context.close();
  });
});
