import { expect } from 'chai';
import { makeCommits, runPlugin } from '@cadence-detect/plugin-testkit';
import timing from '../src/index.js';

const T0 = Date.parse('2018-06-01T12:00:00Z') / 1000;

describe('timing plugin', () => {
  it('flags a commit made sooner than min_time_delta_seconds after the author\u2019s previous one', async () => {
    const commits = makeCommits([{ at: T0 }, { at: T0 + 15, additions: 120 }]);
    const run = await runPlugin(timing, { commits });
    const [detection] = run.detectionsOf('timing');
    expect(detection?.message).to.equal(
      "committed 15s after the author's previous commit (120 lines changed: additions plus deletions), under min_time_delta_seconds 60",
    );
    expect(run.strategy('timing').detected).to.equal(true);
  });

  it('leaves commits at or beyond the threshold alone', async () => {
    const commits = makeCommits([{ at: T0 }, { at: T0 + 60, additions: 300 }, { at: T0 + 4000, additions: 300 }]);
    expect((await runPlugin(timing, { commits })).detections).to.have.length(0);
  });

  it('weighs a tiny quick follow-up (a typo fix) far below a large quick commit', async () => {
    const commits = makeCommits([
      { at: T0 },
      { at: T0 + 10, additions: 1 },
      { at: T0 + 3600 },
      { at: T0 + 3610, additions: 400 },
    ]);
    const [small, large] = (await runPlugin(timing, { commits })).detectionsOf('timing');
    expect(small!.score).to.be.below(0.4);
    expect(large!.score).to.be.above(0.8);
  });

  it('honours a configured min_time_delta_seconds', async () => {
    const commits = makeCommits([{ at: T0 }, { at: T0 + 200, additions: 100 }]);
    expect((await runPlugin(timing, { commits })).detections).to.have.length(0);
    expect(
      (await runPlugin(timing, { commits }, { thresholds: { min_time_delta_seconds: 300 } })).detections,
    ).to.have.length(1);
  });

  it('treats a negative delta (rebased or skewed clocks) as simultaneous, and skips merges', async () => {
    // The git source orders an author's commits by date, so it never gives a negative delta; a
    // record built by other means (a plugin's own source) still may, and must not break the strategy.
    const made = makeCommits([
      { at: T0 + 100 },
      { at: T0, additions: 200 },
      { at: T0 + 101, merge: true, additions: 200 },
    ]);
    const commits = [made[0]!, { ...made[1]!, previousAuthorTime: T0 + 100 }, made[2]!];
    const detections = (await runPlugin(timing, { commits })).detectionsOf('timing');
    expect(detections).to.have.length(1);
    expect(detections[0]?.message).to.contain('committed 0s after');
  });
});
