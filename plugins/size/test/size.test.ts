import { expect } from 'chai';
import { makeCommits, runPlugin, testStrategy } from '@cadence-detect/plugin-testkit';
import size from '../src/index.js';

const T0 = Date.parse('2017-01-10T08:00:00Z') / 1000;
const days = (n: number): number => T0 + n * 86400;

describe('size plugin', () => {
  it('flags additions over suspicious_additions with the measured value and the threshold', async () => {
    const commits = makeCommits([{ at: days(0) }, { at: days(1), additions: 1000 }, { at: days(2), additions: 499 }]);
    const run = await runPlugin(size, { commits });
    const detections = run.detectionsOf('size');
    expect(detections).to.have.length(1);
    expect(detections[0]).to.include({
      commit: commits[1]!.hash,
      message: '1000 additions exceeds suspicious_additions 500',
      severity: 'high',
    });
  });

  it('flags deletions over suspicious_deletions, weighted below additions', async () => {
    const commits = makeCommits([{ at: days(0) }, { at: days(1), additions: 0, deletions: 4000 }]);
    const [detection] = (await runPlugin(size, { commits })).detectionsOf('size');
    expect(detection?.message).to.equal('4000 deletions exceeds suspicious_deletions 1000');
    expect(detection!.score).to.be.closeTo(0.6, 0.001);
  });

  it('takes thresholds from the configuration (the CLI flag --suspicious-additions lands here)', async () => {
    const commits = makeCommits([{ at: days(0) }, { at: days(1), additions: 120 }]);
    expect((await runPlugin(size, { commits })).detections).to.have.length(0);
    expect(
      (await runPlugin(size, { commits }, { thresholds: { suspicious_additions: 100 } })).detections,
    ).to.have.length(1);
  });

  it('discounts the initial import and ignores merges and a shallow boundary', async () => {
    const commits = makeCommits([
      { at: days(0), additions: 5000 },
      { at: days(1), additions: 5000, merge: true },
      { at: days(2), additions: 5000, boundary: true, root: false },
      { at: days(3), additions: 5000 },
    ]);
    const detections = (await runPlugin(size, { commits })).detectionsOf('size');
    expect(detections.map((d) => d.commit)).to.deep.equal([commits[0]!.hash, commits[3]!.hash]);
    expect(detections[0]!.message).to.contain('discounted');
    expect(detections[0]!.score).to.be.below(detections[1]!.score);
  });
});

// The same rules as data, through the testkit's table form.
const big = makeCommits([{ at: days(0) }, { at: days(1), additions: 1000 }]);
testStrategy('size', size, {
  valid: [
    {
      name: 'commits under both thresholds',
      source: { commits: makeCommits([{ at: days(0) }, { at: days(1), additions: 499, deletions: 999 }]) },
    },
    {
      name: 'a large commit under a raised threshold',
      source: { commits: big },
      run: { thresholds: { suspicious_additions: 2000 } },
    },
  ],
  invalid: [
    {
      name: 'a commit over suspicious_additions',
      source: { commits: big },
      detections: [
        { commit: big[1]!.hash, message: '1000 additions exceeds suspicious_additions 500', severity: 'high' },
      ],
    },
  ],
});
