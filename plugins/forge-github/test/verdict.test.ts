import { expect } from 'chai';
import type { RepositoryResult } from '@cadence-detect/plugin-sdk';
import { checkSummary, escapeMarkdown, failsPolicy, forgeErrorCode, verdictOf } from '../src/index.js';

function result(assessment: RepositoryResult['assessment'], extra: Partial<RepositoryResult> = {}): RepositoryResult {
  return {
    source_id: 'x',
    source_type: 'git',
    repo: 'acme/app',
    branch: 'main',
    head_commit: 'a'.repeat(40),
    total_commits: 40,
    suspicious_commits: 2,
    suspicions: [
      {
        commit_hash: 'abc1234',
        commit: 'abc1234'.padEnd(40, '0'),
        message: 'Add [a link](https://evil.test) | pipe',
        severity: 'high',
        confidence: 0.9,
        reasons: ['Co-authored-by: Claude <noreply@anthropic.com>'],
        evidence: 'explicit',
        assistants: ['Claude'],
        files: ['src/a.ts'],
      },
      {
        commit_hash: 'def5678',
        commit: 'def5678'.padEnd(40, '0'),
        message: 'Bulk change',
        severity: 'medium',
        confidence: 0.5,
        reasons: ['1,200 lines in 40 s'],
        evidence: 'inferred',
      },
    ],
    assessment,
    timeline: [],
    overall_score: 0.31,
    suspicion_score: 0.31,
    ai_share: 0.31,
    scored_commits: 40,
    attributed_commits: 1,
    assistants: { Claude: 1 },
    authors: [{ author: '<img src=x>', email: 'x@y', commits: 40, attributed: 1, flagged: 2, share: 0.31 }],
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
    ...extra,
  };
}

describe('report-github: verdicts and policy', () => {
  it('fails only from the assessment report.fail_on names', () => {
    expect(failsPolicy('likely_ai_generated', 'never')).to.equal(false);
    expect(failsPolicy('suspicious', 'suspicious')).to.equal(true);
    expect(failsPolicy('likely_ai_generated', 'suspicious')).to.equal(true);
    expect(failsPolicy('clean', 'suspicious')).to.equal(false);
    expect(failsPolicy('suspicious', 'likely_ai_generated')).to.equal(false);
    expect(verdictOf(result('suspicious'), 'suspicious').failing).to.equal(true);
  });

  it('says the verdict in at most 140 characters', () => {
    const verdict = verdictOf(result('suspicious'), 'never');
    expect(verdict.description).to.equal(
      'suspicious: score 0.31, 31% assistant share, 2 of 40 commits flagged (1 attributed)',
    );
    expect(
      verdictOf(result('suspicious', { assessment: 'suspicious', suspicions: Array.from({ length: 0 }) }), 'never')
        .description.length,
    ).to.be.at.most(140);
  });

  it('escapes what a repository wrote before it reaches the Markdown summary', () => {
    const summary = checkSummary(result('suspicious'), 'never', 'https://cadence.example.test/jobs/1');
    expect(summary).not.to.contain('[a link](https://evil.test)');
    expect(summary).to.contain('\\[a link\\]\\(https\\://evil.test\\) \\| pipe');
    expect(summary).to.contain('\\<img src=x\\>');
    expect(summary).to.contain('[The full report](https://cadence.example.test/jobs/1)');
    expect(escapeMarkdown('a\nb')).to.equal('a b');
  });

  it('names the failure: credentials, rate limits, the forge itself', () => {
    expect(forgeErrorCode({ status: 401 })).to.equal('ERR_FORGE_AUTH');
    expect(forgeErrorCode({ status: 404 })).to.equal('ERR_FORGE_AUTH');
    expect(forgeErrorCode({ status: 403, message: 'You have exceeded a secondary rate limit' })).to.equal(
      'ERR_FORGE_RATE_LIMIT',
    );
    expect(forgeErrorCode({ status: 403, response: { headers: { 'x-ratelimit-remaining': '0' } } })).to.equal(
      'ERR_FORGE_RATE_LIMIT',
    );
    expect(forgeErrorCode({ status: 502 })).to.equal('ERR_FORGE_UNAVAILABLE');
    expect(forgeErrorCode(new TypeError('fetch failed'))).to.equal('ERR_FORGE_UNAVAILABLE');
    expect(forgeErrorCode({ status: 422 })).to.equal('ERR_REPORTER_FAILED');
  });
});
