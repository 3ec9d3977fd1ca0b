import { expect } from 'chai';
import { createRequire } from 'node:module';
import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import {
  eventually,
  exportRepository,
  startCadenceServer,
  startConnectionRecorder,
  startFakeGithub,
  startGitHttpServer,
  type ConnectionRecorder,
  type FakeForge,
  type GitHttpServer,
  type ServerProcess,
} from '@cadence-detect/test-support';
import {
  organizationFixture,
  scanFixture,
  takeOrganizationScreenshot,
  type OrganizationFixture,
} from './organization-pages.js';
import { launchChromium, PREREQUISITES_WAIT_MS } from './report-pages.js';

const require = createRequire(import.meta.url);
const TOKEN = 'organization-page-token-0123456789';
const AUTH = { authorization: `Bearer ${TOKEN}` };

async function seriousViolations(page: Page): Promise<unknown[]> {
  await page.addScriptTag({ path: require.resolve('axe-core/axe.min.js') });
  const violations = await page.evaluate(async () => {
    const axe = (
      globalThis as unknown as { axe: { run: () => Promise<{ violations: { id: string; impact: string }[] }> } }
    ).axe;
    return (await axe.run()).violations.map((v) => ({ id: v.id, impact: v.impact }));
  });
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

describe('the organization view in a browser (headless Chromium)', function () {
  this.timeout(150_000);
  let fixture: OrganizationFixture;
  let browser: Browser;
  let html: string;

  before(async function () {
    this.timeout(PREREQUISITES_WAIT_MS + this.timeout());
    fixture = await organizationFixture();
    html = await scanFixture(fixture);
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await fixture?.work.remove();
  });

  it('shows the CLI\u2019s organization page with its script allowed by its policy: tables sort, links reach each report, and axe finds nothing serious', async () => {
    const context = await browser.newContext({ bypassCSP: false });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    await page.goto(`file://${html}`);
    const names = () => page.locator('table.sortable').first().locator('tbody tr td:first-child').allTextContents();
    // Highest share first as written; sorted by name on a click, with aria-sort saying so.
    // Listed by path, a repository is named by its folder.
    expect((await names())[0]).to.equal('api');
    await page.locator('table.sortable').first().locator('button[data-key="name"]').click();
    expect(await names()).to.deep.equal(['api', 'tools', 'web']);
    expect(await page.locator('table.sortable').first().locator('th[aria-sort="ascending"]').count()).to.equal(1);
    await page.locator('table.sortable').first().locator('button[data-key="commits"]').click();
    expect(await page.locator('table.sortable').first().locator('th[aria-sort="descending"]').count()).to.equal(1);
    expect(errors, errors.join('\n')).to.deep.equal([]);
    await Promise.all([page.waitForURL(/reports\/web\.html$/), page.locator('a', { hasText: /^web$/ }).click()]);
    await page.waitForSelector('section.verdict');
    await page.goBack();
    await context.close();
    const checked = await browser.newContext({ bypassCSP: true });
    const again = await checked.newPage();
    await again.goto(`file://${html}`);
    expect(await seriousViolations(again)).to.deep.equal([]);
    await checked.close();
  });

  it('is readable without JavaScript: the verdict, the monthly chart and both tables are in the page', async () => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`file://${html}`);
    expect(await page.textContent('h1')).to.contain('repositories.txt');
    expect(await page.locator('section.verdict').count()).to.equal(1);
    expect(await page.locator('svg[role="img"]').count()).to.be.greaterThan(0);
    expect(await page.locator('table.sortable').nth(0).locator('tbody tr').count()).to.equal(3);
    expect(await page.locator('table.sortable').nth(1).locator('tbody tr').count()).to.equal(3);
    await context.close();
  });

  it('takes the screenshot docs/organization.md shows (pnpm screenshots refreshes it)', async () => {
    const dir = path.join(fixture.work.path, 'shots');
    await mkdir(dir, { recursive: true });
    const written = await takeOrganizationScreenshot(dir, browser);
    expect(written.map((f) => path.basename(f))).to.deep.equal(['organization.png']);
    expect((await readFile(written[0]!)).subarray(0, 8).toString('hex')).to.equal('89504e470d0a1a0a');
  });

  describe('on the server: the organization job\u2019s page', () => {
    let git: GitHttpServer;
    let github: FakeForge;
    let stall: ConnectionRecorder;
    let server: ServerProcess;

    before(async () => {
      const served = path.join(fixture.work.path, 'served');
      for (const name of fixture.names)
        await exportRepository(served, `${name}.git`, path.join(fixture.work.path, 'repos', name));
      git = await startGitHttpServer(served);
      github = await startFakeGithub();
      stall = await startConnectionRecorder('127.0.0.1', 'stall');
      server = await startCadenceServer({
        cwd: fixture.work.path,
        config: {
          security: { allowed_networks: ['127.0.0.0/8'] },
          forges: { github: { api_url: github.apiUrl } },
          scans: { allowed_owners: ['github:acme'], max_queued_children: 1 },
        },
        env: { CADENCE_API_TOKEN: TOKEN, CADENCE_GITHUB_TOKEN: 'ghp_pageToken0123456789' },
      });
    });
    after(async () => {
      await server?.stop();
      await Promise.all([git?.close(), github?.close(), stall?.close()]);
    });

    it('fills in live as repositories end, passes axe, then becomes the organization page linking each repository\u2019s report', async () => {
      const entry = (name: string, url: string) => ({
        full_name: name,
        clone_url: url,
        archived: false,
        fork: false,
        private: true,
      });
      // The last repository's git server never answers: the scan waits on it until the test cancels that job.
      github.script('GET', /^\/orgs\/acme\/repos/, [
        {
          status: 200,
          body: [
            ...fixture.names.map((n) => entry(n, git.repoUrl(`${n}.git`))),
            entry('acme/slow', `http://127.0.0.1:${stall.port}/acme/slow.git`),
          ],
        },
      ]);
      const started = (await (
        await fetch(`${server.url}/api/analyze/organization`, {
          method: 'POST',
          headers: { ...AUTH, 'content-type': 'application/json' },
          body: JSON.stringify({ forge: 'github', owner: 'acme' }),
        })
      ).json()) as { id: string };
      const context = await browser.newContext({ bypassCSP: true });
      const page = await context.newPage();
      await page.goto(`${server.url}/`);
      await page.fill('#token', TOKEN);
      await Promise.all([page.waitForSelector('#analyze'), page.click('#login button')]);
      await page.goto(`${server.url}/jobs/${started.id}/report`);
      await page.waitForSelector('#progress li:has-text("3 of 4")', { timeout: 60_000 });
      expect(await page.textContent('#status')).to.equal('running');
      expect(await page.textContent('#progress')).to.contain('listed: 4 repositories');
      expect(await seriousViolations(page)).to.deep.equal([]);
      // The slow repository's job exists once the scan has submitted it (one child queued at a time): cancel that job.
      const slowJob = await eventually(async () => {
        const job = (await (await fetch(`${server.url}/jobs/${started.id}`, { headers: AUTH })).json()) as {
          children: { repository: string; job_id?: string | null }[];
        };
        return job.children.find((c) => c.repository === 'acme/slow')?.job_id ?? undefined;
      }, 'the slow repository\u2019s job');
      expect((await fetch(`${server.url}/jobs/${slowJob}/cancel`, { method: 'POST', headers: AUTH })).ok).to.equal(
        true,
      );
      await page.waitForSelector('section.verdict', { timeout: 30_000 });
      expect(await page.textContent('h1')).to.equal('github:acme');
      expect(await page.textContent('main')).to.contain('ERR_CANCELLED');
      expect(await seriousViolations(page)).to.deep.equal([]);
      await Promise.all([
        page.waitForURL(/\/jobs\/[0-9a-f-]+\/report$/),
        page.locator('a', { hasText: 'acme/web' }).click(),
      ]);
      await page.waitForSelector('section.verdict');
      expect(page.url()).to.not.contain(started.id);
      await context.close();
    });

    it('starts a scan from the dashboard\u2019s form (a server with a token), which lists it with its job page', async () => {
      const entry = (name: string) => ({
        full_name: name,
        clone_url: git.repoUrl(`${name}.git`),
        archived: false,
        fork: false,
        private: true,
      });
      github.script('GET', /^\/orgs\/acme\/repos/, [{ status: 200, body: fixture.names.map(entry) }]);
      const context = await browser.newContext({ bypassCSP: true });
      const page = await context.newPage();
      await page.goto(`${server.url}/`);
      await page.fill('#token', TOKEN);
      await Promise.all([page.waitForSelector('#analyze'), page.click('#login button')]);
      await page.selectOption('#analyze-kind', 'organization');
      await page.fill('#analyze-url', 'github:acme');
      await page.click('#analyze button');
      await page.waitForSelector('#analyze-status:has-text("Queued")');
      const row = page.locator('#jobs-body tr', { hasText: 'github:acme' }).first();
      await row.waitFor();
      expect(await seriousViolations(page)).to.deep.equal([]);
      // The report page loads once the scan has ended, which under load takes longer than a
      // navigation's timeout: the URL is what the click is for; the verdict is waited for apart.
      await Promise.all([
        page.waitForURL(/\/jobs\/[0-9a-f-]+\/report$/, { waitUntil: 'commit' }),
        row.locator('a').click(),
      ]);
      await page.waitForSelector('section.verdict', { timeout: 60_000 });
      expect(await page.textContent('h1')).to.equal('github:acme');
      await context.close();
    });
  });
});
