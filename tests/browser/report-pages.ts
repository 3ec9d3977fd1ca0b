import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser } from 'playwright-core';
import type { RepositoryResult, Suspicion, WebsiteResult } from '@cadence-detect/plugin-sdk';
import { renderReport } from '@cadence-detect/reports';
import { eventually } from '@cadence-detect/test-support';

/** Debian's Chromium: the tests never download a browser. */
export const CHROMIUM = process.env.CADENCE_CHROMIUM ?? '/usr/bin/chromium';

/**
 * How long a browser test waits for the Debian packages' install that `.ci/run` starts beside the
 * tests (it names a file written when the install is over in CADENCE_PREREQUISITES_DONE). The browser
 * files run last in their runs, so the install is long over when they start; the wait is for a
 * machine whose mirror is slow.
 */
export const PREREQUISITES_WAIT_MS = 600_000;

/** Debian's Chromium, launched once the prerequisites' install (if one is running) is over. */
export async function launchChromium(): Promise<Browser> {
  const done = process.env.CADENCE_PREREQUISITES_DONE;
  if (done) {
    await eventually(() => existsSync(done), `the Debian packages' install to end (${done})`, {
      timeoutMs: PREREQUISITES_WAIT_MS,
      everyMs: 500,
    });
  }
  return chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
}

export const HOSTILE = `<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script>`;

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

export function bigResult(count: number): RepositoryResult {
  const suspicions = Array.from({ length: count }, (_, i) => suspicion(i + 1));
  return {
    source_id: 'https://github.com/acme/app.git',
    source_type: 'git',
    repo: 'acme/app',
    branch: 'main',
    head_commit: 'b'.repeat(40),
    total_commits: count * 2,
    suspicious_commits: count,
    suspicions,
    assessment: 'suspicious',
    timeline: Array.from({ length: 40 }, (_, i) => ({
      t: Date.UTC(2024, 0, 1) / 1000 + i * 86_400,
      commits: 5 + (i % 7),
      flagged: i % 3,
    })),
    overall_score: 0.31,
    suspicion_score: 0.31,
    ai_share: 0.31,
    scored_commits: count * 2,
    attributed_commits: Math.floor(count / 5),
    assistants: { Claude: Math.floor(count / 5) },
    authors: [
      {
        author: 'Ada Example',
        email: 'ada@example.test',
        commits: count,
        attributed: 3,
        flagged: count / 2,
        share: 0.3,
      },
      { author: HOSTILE, email: 'x@example.test', commits: count, attributed: 0, flagged: count / 2, share: 0.2 },
    ],
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
    detections: suspicions.map((s, i) => ({
      strategy: i % 2 === 0 ? 'commit-model' : 'attribution',
      category: 'x',
      severity: s.severity,
      confidence: s.confidence,
      score: s.confidence,
      message: 'm',
      commit: s.commit,
      evidence: s.evidence,
    })),
    strategy_results: [],
    metrics: { additions: 1000, authors: 2 },
    lines: {
      head: 'b'.repeat(40),
      counted: 12_400,
      excluded: 3_100,
      binary_files: 4,
      explicit: 2_100,
      inferred: 1_340.5,
      automation: 300,
      human: 8_159.5,
      outside: 500,
      share: 0.2986,
      assistants: { Claude: 1_800, [HOSTILE]: 300 },
      directories: [
        { path: 'src', counted: 8_000, share: 0.35 },
        { path: HOSTILE, counted: 3_000, share: 0.2 },
        { path: '.', counted: 1_400, share: null },
      ],
      authors: [{ name: 'Ada Example', email: 'ada@example.test', lines: 9_000, share: 0.3 }],
    },
    survival: {
      assistant: { added: 6_000, surviving: 3_440.5, reworked_14d: 900 },
      human: { added: 12_000, surviving: 8_159.5, reworked_14d: 700 },
      months: Array.from({ length: 14 }, (_, i) => ({
        month: `20${24 + Math.floor(i / 12)}-${String((i % 12) + 1).padStart(2, '0')}`,
        assistant_added: 400 + i * 10,
        assistant_surviving: 200 + i * 8,
        assistant_reworked_14d: 60,
        human_added: 900,
        human_surviving: 600 + i * 5,
        human_reworked_14d: 50,
      })),
    },
  };
}

/** A page result with signals and flagged passages. */
export function websiteResult(): WebsiteResult {
  return {
    source_id: 'https://blog.example.test/posts/caching',
    source_type: 'web',
    url: 'https://blog.example.test/posts/caching',
    final_url: 'https://blog.example.test/posts/caching',
    overall_score: 0.78,
    suspicion_score: 0.78,
    assessment: 'Likely AI-Generated',
    strategies_triggered: 3,
    detections: [
      {
        strategy: 'stock-phrases',
        category: 'content',
        severity: 'high',
        confidence: 0.8,
        score: 0.8,
        message: 'stock phrase "delve into" (4 stock phrases, 4.4 per 1000 words; 6 per 1000 scores 1)',
        element: 'article > p:nth(1): "…In this post we delve into how caching layers…"',
        evidence: 'inferred',
      },
      {
        strategy: 'triads',
        category: 'website-signature',
        severity: 'medium',
        confidence: 0.6,
        score: 0.6,
        message: 'triads per sentence 0.41 (human pages: median 0.08, 90th percentile 0.2)',
        element: 'page',
        evidence: 'inferred',
      },
      {
        strategy: 'reader-address',
        category: 'website-signature',
        severity: 'medium',
        confidence: 0.5,
        score: 0.5,
        message: 'reader openers 0.12 (human pages: median 0.01, 90th percentile 0.04)',
        element: 'article > p:nth(4): "…Imagine a cache that never goes stale…"',
        evidence: 'inferred',
      },
    ],
    strategy_results: [
      {
        name: 'stock-phrases',
        category: 'content',
        detected: true,
        detections: 1,
        score: 0.8,
        duration_ms: 3,
        error: null,
      },
      {
        name: 'triads',
        category: 'website-signature',
        detected: true,
        detections: 1,
        score: 0.6,
        duration_ms: 1,
        error: null,
      },
      {
        name: 'reader-address',
        category: 'website-signature',
        detected: true,
        detections: 1,
        score: 0.5,
        duration_ms: 1,
        error: null,
      },
    ],
    // No page-model metrics: an illustration must not show validation figures nobody measured.
    metrics: { words: 910, sentences: 48 },
  };
}

const CONTEXT = { tool: 'cadence', version: 'screenshot', generated_at: '2026-11-24T10:00:00.000Z', configuration: {} };

/** The screenshots docs/ shows, taken the way the browser tests open the pages: `pnpm screenshots`. */
export async function takeScreenshots(outDir: string, given?: Browser): Promise<string[]> {
  await mkdir(outDir, { recursive: true });
  const browser = given ?? (await launchChromium());
  const written: string[] = [];
  const sources = await mkdtemp(path.join(tmpdir(), 'cadence-screenshots-'));
  try {
    const pages: [string, string, 'light' | 'dark'][] = [
      ['report-repository', renderReport(bigResult(150), 'html', CONTEXT), 'light'],
      ['report-repository-dark', renderReport(bigResult(150), 'html', CONTEXT), 'dark'],
      ['report-website', renderReport(websiteResult(), 'html', CONTEXT), 'light'],
    ];
    for (const [name, html, scheme] of pages) {
      const source = path.join(sources, `${name}.html`);
      await writeFile(source, html);
      const context = await browser.newContext({ viewport: { width: 1280, height: 2000 }, colorScheme: scheme });
      const page = await context.newPage();
      await page.goto(pathToFileURL(source).href);
      const file = path.join(outDir, `${name}.png`);
      await page.screenshot({ path: file });
      await context.close();
      written.push(file);
    }
  } finally {
    if (!given) await browser.close();
    await rm(sources, { recursive: true, force: true });
  }
  return written;
}
