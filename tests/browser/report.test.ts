import { expect } from 'chai';
import { writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import type { RepositoryResult, Suspicion } from '@cadence/plugin-sdk';
import { renderReport } from '@cadence/reports';
import { mkdir, readFile } from 'node:fs/promises';
import { burstHistory, createRepository, makeTempDir, runCadence, type TempDir } from '@cadence/test-support';

/** Debian's Chromium: the tests never download a browser. */
export const CHROMIUM = process.env.CADENCE_CHROMIUM ?? '/usr/bin/chromium';
const HOSTILE = `<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script>`;
const require = createRequire(import.meta.url);

function suspicion(i: number): Suspicion {
  const severity = i % 3 === 0 ? 'high' : i % 3 === 1 ? 'medium' : 'low';
  const commit = i.toString(16).padStart(40, 'a');
  return {
    commit_hash: commit.slice(0, 9),
    commit,
    message: i === 7 ? `Fix ${HOSTILE}` : `Change number ${i}`,
    severity,
    confidence: Math.round((0.3 + (i % 70) / 100) * 100) / 100,
    reasons: [i === 7 ? `reason ${HOSTILE}` : `reason for ${i}`],
    evidence: i % 5 === 0 ? 'explicit' : 'inferred',
    ...(i % 5 === 0 ? { assistants: ['Claude'] } : {}),
    author: i === 7 ? HOSTILE : i % 2 === 0 ? 'Ada Example' : 'Grace Hopper',
    date: new Date(Date.UTC(2024, 0, 1) + i * 3_600_000).toISOString(),
  };
}

function bigResult(count: number): RepositoryResult {
  const suspicions = Array.from({ length: count }, (_, i) => suspicion(i + 1));
  return {
    source_id: 'https://github.com/acme/app.git', source_type: 'git', repo: 'acme/app', branch: 'main', head_commit: 'b'.repeat(40),
    total_commits: count * 2, suspicious_commits: count, suspicions, assessment: 'suspicious',
    timeline: Array.from({ length: 40 }, (_, i) => ({ t: Date.UTC(2024, 0, 1) / 1000 + i * 86_400, commits: 5 + (i % 7), flagged: i % 3 })),
    overall_score: 0.31, suspicion_score: 0.31, ai_share: 0.31, scored_commits: count * 2, attributed_commits: Math.floor(count / 5),
    assistants: { Claude: Math.floor(count / 5) },
    authors: [{ author: 'Ada Example', email: 'ada@example.test', commits: count, attributed: 3, flagged: count / 2, share: 0.3 }, { author: HOSTILE, email: 'x@example.test', commits: count, attributed: 0, flagged: count / 2, share: 0.2 }],
    assessment_bands: { suspicious: 0.15, likely_ai_generated: 0.5 }, scoring: 'model', flag_at: 0.42,
    thresholds: { suspicious_additions: 500, suspicious_deletions: 1000, max_additions_per_min: 100, max_deletions_per_min: 500, min_time_delta_seconds: 60 },
    detections: suspicions.map((s, i) => ({ strategy: i % 2 === 0 ? 'commit-model' : 'attribution', category: 'x', severity: s.severity, confidence: s.confidence, score: s.confidence, message: 'm', commit: s.commit, evidence: s.evidence })),
    strategy_results: [], metrics: { additions: 1000, authors: 2 },
  };
}

describe('the HTML report in a browser (headless Chromium)', function () {
  this.timeout(60_000);
  let work: TempDir;
  let browser: Browser;
  let file: string;
  const count = 150;

  before(async () => {
    work = await makeTempDir('cadence-report-browser-');
    file = path.join(work.path, 'report.html');
    await writeFile(file, renderReport(bigResult(count), 'html', { tool: 'cadence', version: '9.9.9', generated_at: '2026-11-24T10:00:00.000Z', configuration: {} }));
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
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

  const visibleRows = (page: Page): Promise<{ severity: string; evidence: string; confidence: number; author: string }[]> =>
    page.$$eval('#findings tbody tr:not([hidden])', (rows) => rows.map((r) => {
      const data = (r as unknown as { dataset: Record<string, string> }).dataset;
      return { severity: data.severity!, evidence: data.evidence!, confidence: Number(data.confidence), author: data.author! };
    }));

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
    expect(await page.getAttribute('th:has(button[data-key="confidence"]) >> nth=-1', 'aria-sort')).to.equal('ascending');

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

  it('opens the CLI\'s own report of a real repository from file:// without JavaScript, every flagged commit shown', async () => {
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
    expect(await page.locator('svg[role="img"]').count()).to.equal(1);
    await context.close();
  });

  it('passes an axe-core accessibility check with no serious or critical violation', async () => {
    for (const scheme of ['light', 'dark'] as const) {
      const page = await open(true, true);
      await page.emulateMedia({ colorScheme: scheme });
      await page.addScriptTag({ path: require.resolve('axe-core/axe.min.js') });
      const violations = await page.evaluate(async () => {
        const axe = (globalThis as unknown as { axe: { run: () => Promise<{ violations: { id: string; impact: string; nodes: unknown[] }[] }> } }).axe;
        const result = await axe.run();
        return result.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.length }));
      });
      const serious = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
      expect(serious, `${scheme}: ${JSON.stringify(serious)}`).to.deep.equal([]);
    }
  });
});
