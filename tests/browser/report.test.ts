import { expect } from 'chai';
import { writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import type { RepositoryResult } from '@cadence-detect/plugin-sdk';
import { bigResult, launchChromium, PREREQUISITES_WAIT_MS, takeScreenshots } from './report-pages.js';

const require = createRequire(import.meta.url);
import { renderReport } from '@cadence-detect/reports';
import { mkdir, readFile } from 'node:fs/promises';
import { burstHistory, createRepository, makeTempDir, runCadence, type TempDir } from '@cadence-detect/test-support';

describe('the HTML report in a browser (headless Chromium)', function () {
  this.timeout(60_000);
  let work: TempDir;
  let browser: Browser;
  let file: string;
  const count = 150;

  before(async function () {
    this.timeout(PREREQUISITES_WAIT_MS + this.timeout());
    work = await makeTempDir('cadence-report-browser-');
    file = path.join(work.path, 'report.html');
    await writeFile(
      file,
      renderReport(bigResult(count), 'html', {
        tool: 'cadence',
        version: '9.9.9',
        generated_at: '2026-11-24T10:00:00.000Z',
        configuration: {},
      }),
    );
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await work?.remove();
  });

  async function open(javaScriptEnabled = true, bypassCSP = false): Promise<Page> {
    const context = await browser.newContext({ javaScriptEnabled, bypassCSP });
    const page = await context.newPage();
    page.on('dialog', () => {
      throw new Error('a dialog opened');
    });
    await page.goto(pathToFileURL(file).href);
    return page;
  }

  const visibleRows = (
    page: Page,
  ): Promise<{ severity: string; evidence: string; confidence: number; author: string }[]> =>
    page.$$eval('#findings tbody tr:not([hidden])', (rows) =>
      rows.map((r) => {
        const data = (r as unknown as { dataset: Record<string, string> }).dataset;
        return {
          severity: data.severity!,
          evidence: data.evidence!,
          confidence: Number(data.confidence),
          author: data.author!,
        };
      }),
    );

  it('pages the findings, strongest first, and shows more on demand', async () => {
    const page = await open();
    expect(await page.isVisible('#finding-controls')).to.equal(true);
    let rows = await visibleRows(page);
    expect(rows).to.have.length(100);
    expect(rows.map((r) => r.confidence)).to.deep.equal([...rows.map((r) => r.confidence)].sort((a, b) => b - a));
    expect(await page.textContent('#finding-count')).to.equal(`100 of ${count} shown`);
    await page.click('#finding-more');
    rows = await visibleRows(page);
    expect(rows).to.have.length(count);
    expect(await page.isHidden('#finding-more')).to.equal(true);
  });

  it('sorts by a column and filters by severity, evidence, strategy and author', async () => {
    const page = await open();
    await page.click('th button[data-key="confidence"] >> nth=-1');
    const ascending = await visibleRows(page);
    expect(ascending[0]!.confidence).to.equal(Math.min(...ascending.map((r) => r.confidence)));
    expect(await page.getAttribute('th:has(button[data-key="confidence"]) >> nth=-1', 'aria-sort')).to.equal(
      'ascending',
    );

    await page.selectOption('#filter-severity', 'high');
    const high = await visibleRows(page);
    expect(high.length).to.equal(Math.floor(count / 3));
    expect(high.every((r) => r.severity === 'high')).to.equal(true);
    await page.selectOption('#filter-evidence', 'explicit');
    expect((await visibleRows(page)).every((r) => r.severity === 'high' && r.evidence === 'explicit')).to.equal(true);
    await page.selectOption('#filter-severity', '');
    await page.selectOption('#filter-evidence', '');
    await page.selectOption('#filter-strategy', 'attribution');
    expect(await visibleRows(page)).to.have.length(count / 2);
    await page.selectOption('#filter-strategy', '');
    await page.fill('#filter-author', 'grace');
    const grace = await visibleRows(page);
    expect(grace.length).to.be.greaterThan(0);
    expect(grace.every((r) => r.author === 'grace hopper')).to.equal(true);
  });

  it('links each commit to its forge and shows dates on one readable line', async () => {
    const page = await open();
    const first = page.locator('#findings tbody tr:not([hidden])').first();
    const hash = await first.getAttribute('data-commit');
    const href = await first.locator('a').getAttribute('href');
    expect(href).to.match(new RegExp(`^https://github\\.com/acme/app/commit/${hash}[0-9a-f]*$`));
    expect(await first.locator('td.when').textContent()).to.match(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC$/);
  });

  it('runs nothing a repository wrote (hostile messages and author names stay text)', async () => {
    const page = await open();
    await page.click('#finding-more');
    expect(await page.evaluate(() => (globalThis as unknown as { __pwned?: number }).__pwned ?? 0)).to.equal(0);
    expect(await page.$$eval('img', (images) => images.length)).to.equal(0);
    expect(await page.locator('#findings').textContent()).to.contain('<img src=x onerror="window.__pwned=1">');
  });

  it('shows every finding it holds from file:// with JavaScript disabled', async () => {
    const page = await open(false);
    expect(await visibleRows(page)).to.have.length(count);
    expect(await page.isHidden('#finding-controls')).to.equal(true);
  });

  it("opens the CLI's own report of a real repository from file:// without JavaScript, every flagged commit shown", async () => {
    const repo = path.join(work.path, 'burst');
    await mkdir(repo);
    await createRepository(repo, burstHistory(12));
    const html = path.join(work.path, 'cli.html');
    const json = path.join(work.path, 'cli.json');
    for (const out of [html, json]) {
      const run = await runCadence(['analyze', repo, '-o', out], { cwd: work.path });
      expect(run.code, run.stderr).to.be.oneOf([0, 3]);
    }
    const flagged = (JSON.parse(await readFile(json, 'utf8')) as RepositoryResult).suspicions.length;
    expect(flagged).to.be.greaterThan(0);
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(pathToFileURL(html).href);
    expect(await page.locator('#findings tbody tr:visible').count()).to.equal(flagged);
    // The four charts: the code at HEAD, its survival by month, commits over time, and the assistant share by month.
    expect(await page.locator('svg[role="img"]:not(.trend)').count()).to.equal(4);
    expect(await page.locator('svg[aria-labelledby="share-chart-title"]').count()).to.equal(1);
    // Code at HEAD and Does it last read without script: the numbers are in tables, the bars carry titles.
    const lines = (JSON.parse(await readFile(json, 'utf8')) as RepositoryResult).lines!;
    expect(await page.locator('h2', { hasText: 'Code at HEAD' }).count()).to.equal(1);
    expect(await page.locator('svg[aria-labelledby="code-bar-title"] title#code-bar-title').textContent()).to.contain(
      `The ${lines.counted.toLocaleString('en')} lines at HEAD`,
    );
    expect(await page.locator('#code-folders tbody tr').count()).to.equal(lines.directories.length);
    expect(await page.locator('#survival tbody tr').count()).to.equal(2);
    expect(await page.locator('svg[aria-labelledby="survival-chart-title"]').count()).to.equal(1);
    await context.close();
  });

  it('takes the screenshots docs/ shows (pnpm screenshots refreshes them)', async () => {
    const written = await takeScreenshots(path.join(work.path, 'shots'), browser);
    expect(written.map((f) => path.basename(f))).to.deep.equal([
      'report-repository.png',
      'report-repository-dark.png',
      'report-website.png',
    ]);
    for (const file of written)
      expect((await readFile(file)).subarray(0, 8).toString('hex')).to.equal('89504e470d0a1a0a');
  });

  it('passes an axe-core accessibility check with no serious or critical violation', async () => {
    for (const scheme of ['light', 'dark'] as const) {
      const page = await open(true, true);
      await page.emulateMedia({ colorScheme: scheme });
      await page.addScriptTag({ path: require.resolve('axe-core/axe.min.js') });
      const violations = await page.evaluate(async () => {
        const axe = (
          globalThis as unknown as {
            axe: { run: () => Promise<{ violations: { id: string; impact: string; nodes: unknown[] }[] }> };
          }
        ).axe;
        const result = await axe.run();
        return result.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.length }));
      });
      const serious = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
      expect(serious, `${scheme}: ${JSON.stringify(serious)}`).to.deep.equal([]);
    }
  });
});
