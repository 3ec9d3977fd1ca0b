import { expect } from 'chai';
import { makeCommits, runPlugin } from '@cadence-detect/plugin-testkit';
import velocity from '../src/index.js';

const T0 = Date.parse('2019-03-04T09:00:00Z') / 1000;
const minutes = (n: number): number => T0 + n * 60;

describe('velocity plugin', () => {
  it('flags a commit that adds lines faster than max_additions_per_min and says by how much', async () => {
    const commits = makeCommits([
      { at: minutes(0), additions: 20 },
      { at: minutes(2), additions: 900 },
    ]);
    const run = await runPlugin(velocity, { commits });
    const [detection, ...rest] = run.detectionsOf('velocity');
    expect(rest).to.have.length(0);
    expect(detection?.commit).to.equal(commits[1]!.hash);
    expect(detection?.message).to.match(/^450 additions\/min .* exceeds max_additions_per_min 100$/);
    expect(detection?.severity).to.equal('high');
    expect(run.strategy('velocity')).to.include({ detected: true, detections: 1, error: null });
  });

  it('measures from the same author\u2019s previous commit, not anyone\u2019s', async () => {
    const commits = makeCommits([
      { at: minutes(0), author: 'Grace', additions: 5 },
      { at: minutes(300), author: 'Alan', additions: 5 },
      { at: minutes(301), author: 'Grace', additions: 600 },
    ]);
    const run = await runPlugin(velocity, { commits });
    expect(run.detectionsOf('velocity')).to.have.length(0);
  });

  it('follows the threshold from the configuration', async () => {
    const commits = makeCommits([{ at: minutes(0) }, { at: minutes(10), additions: 600 }]);
    expect((await runPlugin(velocity, { commits })).detectionsOf('velocity')).to.have.length(0);
    const strict = await runPlugin(velocity, { commits }, { thresholds: { max_additions_per_min: 30 } });
    expect(strict.detectionsOf('velocity')[0]?.message).to.contain('exceeds max_additions_per_min 30');
  });

  it('counts fast deletions against max_deletions_per_min, as weaker evidence', async () => {
    const commits = makeCommits([{ at: minutes(0) }, { at: minutes(1), additions: 0, deletions: 4000 }]);
    const [detection] = (await runPlugin(velocity, { commits })).detectionsOf('velocity');
    expect(detection?.message).to.match(/deletions\/min .* exceeds max_deletions_per_min 500/);
    expect(detection!.score).to.be.below(0.7);
  });

  it('gives merges, a shallow boundary and an author\u2019s first commit no finding', async () => {
    const commits = makeCommits([
      { at: minutes(0), additions: 9000, boundary: true, root: false },
      { at: minutes(1), additions: 9000, merge: true },
      { at: minutes(2), additions: 9000, author: 'Newcomer' },
    ]);
    expect((await runPlugin(velocity, { commits })).detections).to.have.length(0);
  });

  it('discounts a squash merge made by the forge', async () => {
    const commits = makeCommits([
      { at: minutes(0) },
      { at: minutes(3), additions: 1500, subject: 'Add parser (#42)' },
      { at: minutes(6), additions: 1500, subject: 'Add lexer' },
    ]);
    const [squash, plain] = (await runPlugin(velocity, { commits })).detectionsOf('velocity');
    expect(squash!.score).to.be.below(plain!.score);
  });
});
