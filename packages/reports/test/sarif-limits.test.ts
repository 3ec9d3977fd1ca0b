import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import type { RepositoryResult, Suspicion } from '@cadence-detect/plugin-sdk';
import { MAX_RESULTS, renderSarif } from '../src/sarif-report.js';

/** A flagged commit; `noise` makes its reasons incompressible (to fill a gzipped budget). */
function suspicion(i: number, options: { explicit?: boolean; confidence?: number; noise?: number } = {}): Suspicion {
  const hash = i.toString(16).padStart(40, '0');
  return {
    commit_hash: hash.slice(-7),
    commit: hash,
    message: `2 patterns detected (velocity, size): Change ${i}`,
    severity: 'high',
    confidence: options.confidence ?? 0.9,
    reasons: options.noise
      ? [`size (inferred): ${randomBytes(options.noise).toString('base64')}`]
      : ['size (inferred): 900 additions'],
    evidence: options.explicit ? 'explicit' : 'inferred',
    ...(options.explicit ? { assistants: ['Claude Code'] } : {}),
    files: [`src/file${i}.ts`],
    files_at_head: [`src/file${i}.ts`],
  };
}

function result(suspicions: Suspicion[]): RepositoryResult {
  return {
    source_id: '/work/repo',
    source_type: 'git',
    repo: 'repo',
    branch: 'main',
    head_commit: 'a'.repeat(40),
    total_commits: suspicions.length,
    suspicious_commits: suspicions.length,
    suspicions,
    overall_score: 0.9,
    suspicion_score: 0.9,
    assessment: 'likely_ai_generated',
    ai_share: 0.9,
    scored_commits: suspicions.length,
    attributed_commits: suspicions.filter((s) => s.evidence === 'explicit').length,
    assistants: {},
    authors: [],
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
    detections: [],
    strategy_results: [],
    metrics: {},
    timeline: [],
  };
}

interface Run {
  results: { level: string; properties: { commit: string } }[];
  properties: { results_capped?: { omitted: number; reason: string; max_results: number } };
}

const runOf = (sarif: string): Run => (JSON.parse(sarif) as { runs: Run[] }).runs[0]!;

describe('SARIF within code scanning limits', () => {
  it(`keeps at most ${MAX_RESULTS} results, the inferred and most confident first, and says how many it left out`, () => {
    const many = [
      ...Array.from({ length: MAX_RESULTS }, (_, i) => suspicion(i, { explicit: true })),
      suspicion(MAX_RESULTS, { confidence: 0.5 }),
    ];
    const run = runOf(renderSarif(result(many)));
    expect(run.results).to.have.length(MAX_RESULTS);
    expect(run.properties.results_capped).to.deep.include({
      omitted: 1,
      reason: 'result_count',
      max_results: MAX_RESULTS,
    });
    // The one warning is kept; a note made room for it.
    expect(run.results.filter((r) => r.level === 'warning').map((r) => r.properties.commit)).to.deep.equal([
      many[MAX_RESULTS]!.commit,
    ]);
    // Below the cap nothing is said.
    expect(runOf(renderSarif(result(many.slice(0, 10)))).properties.results_capped).to.equal(undefined);
  });

  it('keeps the gzipped file under the size limit, dropping the least confident results', () => {
    const noisy = Array.from({ length: 40 }, (_, i) => suspicion(i, { confidence: 0.5 + i / 100, noise: 400 }));
    const limit = 15_000;
    const sarif = renderSarif(result(noisy), undefined, { maxGzipBytes: limit });
    expect(gzipSync(sarif).length).to.be.at.most(limit);
    const run = runOf(sarif);
    expect(run.results.length).to.be.above(0).and.below(40);
    expect(run.properties.results_capped).to.deep.include({ omitted: 40 - run.results.length, reason: 'gzip_size' });
    // The most confident (the last ones) stay.
    expect(run.results.map((r) => r.properties.commit)).to.include(noisy[39]!.commit);
    expect(run.results.map((r) => r.properties.commit)).to.not.include(noisy[0]!.commit);
  });
});
