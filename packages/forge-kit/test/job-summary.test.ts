import { expect } from 'chai';
import type { RepositoryResult } from '@cadence-detect/plugin-sdk';
import { addedLinesSentence, ciSummary } from '../src/job-summary.js';

function result(assistantAdded: number, humanAdded: number): RepositoryResult {
  return {
    assessment: 'clean',
    suspicions: [],
    total_commits: 4,
    ai_share: 0.03,
    overall_score: 0.03,
    assistants: {},
    survival: {
      assistant: { added: assistantAdded, surviving: 0, reworked_14d: 0 },
      human: { added: humanAdded, surviving: 0, reworked_14d: 0 },
      months: [],
    },
  } as unknown as RepositoryResult;
}

describe('cadence ci: the job summary', () => {
  it('says a small expected count of assistant lines with its decimal, never "about 0 (4%)"', () => {
    expect(addedLinesSentence(result(0.4, 9.6))).to.deep.equal([
      'Adds 10 lines; an expected 0.4 (4%) of them from assistant-made commits (lines weigh each commit by its size, the commit share does not).',
    ]);
    expect(addedLinesSentence(result(1200.2, 30_000))[0]).to.contain('Adds 31,200 lines; an expected 1,200 (4%)');
  });

  it('says whether the gate passed, failed, or there is none', () => {
    const range = { base: 'a'.repeat(40), head: 'b'.repeat(40) };
    expect(ciSummary(result(1, 9), range, { failOn: 'suspicious', gateReached: false })).to.contain(
      'Gate: passed: the verdict clean is below fail-on suspicious.',
    );
    expect(ciSummary(result(1, 9), range, { failOn: 'suspicious', gateReached: true })).to.contain(
      'Gate: **failed**: the verdict clean reaches fail-on suspicious.',
    );
    expect(ciSummary(result(1, 9), range)).to.contain('Gate: none (no fail-on level)');
  });
});
