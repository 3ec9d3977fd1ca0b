import { expect } from 'chai';
import { createRequire } from 'node:module';
import { chromium, type Browser } from 'playwright-core';
import { makeTempDir, startCadenceServer, type ServerProcess, type TempDir } from '@cadence/test-support';
import { serveRepositories, type GitFixtures } from '../server/fixtures.js';
import { CHROMIUM } from './report-pages.js';

const TOKEN = 'dashboard-token-0123456789abcdef';
const require = createRequire(import.meta.url);

describe('the dashboard in a browser (headless Chromium, the real server)', function () {
  this.timeout(90_000);
  let work: TempDir;
  let git: GitFixtures;
  let server: ServerProcess;
  let browser: Browser;

  before(async () => {
    work = await makeTempDir('cadence-dashboard-');
    git = await serveRepositories(work.path);
    server = await startCadenceServer({
      cwd: work.path,
      config: { security: { allowed_networks: ['127.0.0.0/8'] }, strategies: { disabled: ['commit-model'] } },
      env: { CADENCE_API_TOKEN: TOKEN },
    });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  });
  after(async () => {
    await browser?.close();
    await server?.stop();
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
    await page.waitForFunction(() => ((globalThis as unknown as { document: { getElementById(id: string): { textContent: string } | null } }).document.getElementById('login-status')?.textContent ?? '') !== '');
    expect(await page.textContent('#login-status')).to.contain('not accepted');
    await page.fill('#token', TOKEN);
    await Promise.all([page.waitForSelector('#analyze'), page.click('#login button')]);
    const cookies = await context.cookies();
    const session = cookies.find((c) => c.name === 'cadence_session')!;
    expect(session).to.include({ httpOnly: true, sameSite: 'Strict' });
    expect(session.value).not.to.contain(TOKEN);
    expect(page.url()).not.to.contain(TOKEN);
    expect(await page.evaluate(() => (globalThis as unknown as { document: { cookie: string } }).document.cookie)).to.equal('');
    await context.close();
  });

  it('shows a job submitted through the form in the list without a reload, then its verdict and its report page', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${server.url}/`);
    await page.fill('#token', TOKEN);
    await Promise.all([page.waitForSelector('#analyze'), page.click('#login button')]);
    let reloaded = false;
    page.on('load', () => (reloaded = true));
    await page.fill('#analyze-url', git.daemon.url('acme/burst.git'));
    await page.click('#analyze button');
    const row = page.locator('#jobs-body tr', { hasText: 'acme/burst' }).first();
    await row.waitFor();
    await page.waitForSelector('#jobs-body tr[data-status="completed"] a', { timeout: 30_000 });
    expect(reloaded).to.equal(false);
    expect(await row.textContent()).to.match(/completed.*acme\/burst.*api.*\d\.\d\d.*likely_ai_generated/);
    await Promise.all([page.waitForURL(/\/jobs\/[0-9a-f-]+\/report$/), row.locator('a').click()]);
    expect(await page.textContent('h1')).to.equal('acme/burst');
    expect(await page.locator('#findings tbody tr').count()).to.be.greaterThan(0);
    await context.close();
  });

  it('refuses a cookie-authenticated change from another origin, and the guarded API without token or cookie', async () => {
    const login = await fetch(`${server.url}/session`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token: TOKEN }) });
    expect(login.status).to.equal(204);
    const cookie = login.headers.get('set-cookie')!.split(';')[0]!;
    const body = JSON.stringify({ url: git.daemon.url('acme/burst.git') });
    const crossSite = await fetch(`${server.url}/api/analyze/repository`, { method: 'POST', headers: { cookie, origin: 'https://evil.example', 'content-type': 'application/json' }, body });
    expect(crossSite.status).to.equal(403);
    const noOrigin = await fetch(`${server.url}/jobs/unknown/cancel`, { method: 'POST', headers: { cookie } });
    expect(noOrigin.status).to.equal(403);
    expect((await fetch(`${server.url}/jobs`, { headers: { cookie } })).status).to.equal(200);
    expect((await fetch(`${server.url}/jobs`)).status).to.equal(401);
    expect((await fetch(`${server.url}/jobs`, { headers: { cookie: 'cadence_session=v1.9999999999.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' } })).status).to.equal(401);
  });

  it('passes an axe-core accessibility check on the sign-in page and the dashboard', async () => {
    const context = await browser.newContext({ bypassCSP: true });
    const page = await context.newPage();
    const check = async (): Promise<unknown[]> => {
      await page.addScriptTag({ path: require.resolve('axe-core/axe.min.js') });
      const violations = await page.evaluate(async () => {
        const axe = (globalThis as unknown as { axe: { run: () => Promise<{ violations: { id: string; impact: string }[] }> } }).axe;
        return (await axe.run()).violations.map((v) => ({ id: v.id, impact: v.impact }));
      });
      return violations.filter((v) => (v as { impact: string }).impact === 'serious' || (v as { impact: string }).impact === 'critical');
    };
    await page.goto(`${server.url}/`);
    expect(await check()).to.deep.equal([]);
    await page.fill('#token', TOKEN);
    await Promise.all([page.waitForSelector('#analyze'), page.click('#login button')]);
    await page.waitForFunction(() => (globalThis as unknown as { document: { getElementById(id: string): { textContent: string } | null } }).document.getElementById('jobs-status')?.textContent !== '');
    expect(await check()).to.deep.equal([]);
    await context.close();
  });
});
