// The HTML report in a browser: a 1,000-finding report, opened from file:// in headless Chromium
// (Debian's), until its script has sorted and paged the table, against an empty page opened the same
// way in the same run (target: under 1 s, reported with the ratio); and the file's size for a
// 50,000-commit history (target: under 2 MB).
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { renderReport } from '@cadence-detect/reports';

const COMMITS = 50_000;
const FLAGGED = 5_000;
const dir = mkdtempSync(path.join(tmpdir(), 'cadence-bench-report-'));

function result() {
  const start = Date.UTC(2015, 0, 1) / 1000;
  const suspicions = Array.from({ length: FLAGGED }, (_, i) => {
    const commit = (i + 1).toString(16).padStart(40, 'c');
    return {
      commit_hash: commit.slice(0, 9),
      commit,
      message: `Change ${i}: reshape the module and its tests`,
      severity: ['high', 'medium', 'low'][i % 3],
      confidence: 0.4 + (i % 60) / 100,
      reasons: [
        `${200 + (i % 900)} lines in ${30 + (i % 300)} s (author median 45 lines in 40 min)`,
        'tests and code together',
      ],
      evidence: i % 7 === 0 ? 'explicit' : 'inferred',
      author: `Author ${i % 40}`,
      date: new Date((start + i * 6000) * 1000).toISOString(),
      files: ['src/module.ts'],
    };
  });
  return {
    source_id: 'https://github.com/acme/big.git',
    source_type: 'git',
    repo: 'acme/big',
    branch: 'main',
    head_commit: 'd'.repeat(40),
    total_commits: COMMITS,
    suspicious_commits: FLAGGED,
    suspicions,
    assessment: 'suspicious',
    timeline: Array.from({ length: 3650 }, (_, i) => ({
      t: start + i * 86_400,
      commits: 10 + (i % 9),
      flagged: i % 4,
    })),
    overall_score: 0.2,
    suspicion_score: 0.2,
    ai_share: 0.2,
    scored_commits: COMMITS,
    attributed_commits: 700,
    assistants: { Claude: 500, Copilot: 200 },
    authors: Array.from({ length: 40 }, (_, i) => ({
      author: `Author ${i}`,
      email: `a${i}@example.test`,
      commits: COMMITS / 40,
      attributed: 10,
      flagged: FLAGGED / 40,
      share: 0.2,
    })),
    assessment_bands: { suspicious: 0.15, likely_ai_generated: 0.5 },
    scoring: 'model',
    flag_at: 0.42,
    thresholds: {
      suspicious_additions: 500,
      suspicious_deletions: 1000,
      max_additions_per_min: 100,
      max_deletions_per_min: 500,
      min_time_delta_seconds: 60,
    },
    detections: suspicions.slice(0, 2000).map((s) => ({
      strategy: 'commit-model',
      category: 'model',
      severity: s.severity,
      confidence: s.confidence,
      score: s.confidence,
      message: 'm',
      commit: s.commit,
      evidence: s.evidence,
    })),
    strategy_results: [],
    metrics: { additions: 1_000_000, authors: 40 },
  };
}

const report = path.join(dir, 'report.html');
const empty = path.join(dir, 'empty.html');
writeFileSync(
  report,
  renderReport(result(), 'html', {
    tool: 'cadence',
    version: 'bench',
    generated_at: new Date().toISOString(),
    configuration: {},
  }),
);
writeFileSync(
  empty,
  '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>empty</title></head><body><p>empty</p></body></html>',
);
const bytes = statSync(report).size;

const browser = await chromium.launch({
  executablePath: process.env.CADENCE_CHROMIUM ?? '/usr/bin/chromium',
  args: ['--no-sandbox'],
});
async function best(file, runs = 5) {
  let min = Infinity;
  for (let i = 0; i < runs; i++) {
    const context = await browser.newContext();
    const page = await context.newPage();
    const started = performance.now();
    await page.goto(pathToFileURL(file).href, { waitUntil: 'load' });
    // The script has run once the count line is filled (the report); the empty page has none.
    if (file === report)
      await page.waitForFunction(() => (document.getElementById('finding-count')?.textContent ?? '') !== '');
    min = Math.min(min, performance.now() - started);
    await context.close();
  }
  return min;
}
const baseline = await best(empty);
const rendered = await best(report);
await browser.close();
rmSync(dir, { recursive: true, force: true });
console.log(
  `report of ${COMMITS} commits, ${FLAGGED} flagged (1,000 in the page): ${(bytes / 1048576).toFixed(2)} MB (target < 2 MB) ${bytes < 2 * 1048576 ? 'OK' : 'MISSED'}`,
);
console.log(`empty page from file:// in Chromium: ${baseline.toFixed(0)} ms`);
console.log(
  `the report, until its script has sorted and paged: ${rendered.toFixed(0)} ms = ${(rendered / baseline).toFixed(1)}x the empty page (target < 1000 ms) ${rendered < 1000 ? 'OK' : 'MISSED'}`,
);
