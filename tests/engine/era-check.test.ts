import { expect } from 'chai';
import { defineStrategy, definePlugin, type RepositoryResult } from '@cadence-detect/plugin-sdk';
import { makeCommits, runPlugin } from '@cadence-detect/plugin-testkit';
import attribution from '@cadence-detect/plugin-attribution';
import { renderReport } from '@cadence-detect/reports';

const BEFORE = Date.parse('2021-06-28T12:00:00Z') / 1000;
const AFTER = Date.parse('2021-06-29T00:00:00Z') / 1000;

/** A model that says 0.8 for commits whose subject starts "flag", 0.1 otherwise (flagged from 0.5). */
const fixedModel = definePlugin({
  name: 'fixed-model',
  apply: (hooks) =>
    hooks.registerStrategies.tap('fixed-model', (r) =>
      r.add(
        defineStrategy({
          meta: {
            name: 'fixed-model',
            category: 'model',
            description: 'Probabilities set by the test.',
            appliesTo: 'repository',
            weight: 1,
            calibrated: true,
          },
          analyze(context) {
            const probabilities = new Map(
              context.commits.map((c) => [c.hash, c.subject.startsWith('flag') ? 0.8 : 0.1]),
            );
            return {
              findings: context.commits
                .filter((c) => probabilities.get(c.hash)! >= 0.5)
                .map((c) => ({ commit: c.hash, score: probabilities.get(c.hash)!, message: 'model' })),
              probabilities,
              flagAt: 0.5,
            };
          },
        }),
      ),
    ),
});

describe('the false-alarm floor (era_check): the history\u2019s commits from before assistants existed', () => {
  const commits = makeCommits([
    // Before 2021-06-29: 24 of a person's commits (2 flagged), one attributed, one by automation.
    ...Array.from({ length: 24 }, (_, i) => ({
      at: BEFORE - (24 - i) * 86_400,
      subject: i < 2 ? `flag me ${i}` : `change ${i}`,
      additions: 10,
    })),
    { at: BEFORE - 3600, subject: 'Add parser', body: 'Co-authored-by: Claude <noreply@anthropic.com>', additions: 10 },
    {
      at: BEFORE - 1800,
      subject: 'Bump lodash from 4.17.20 to 4.17.21',
      author: 'dependabot[bot]',
      email: '49699333+dependabot[bot]@users.noreply.github.com',
      additions: 10,
    },
    // The last day of the era and after: on the other side, never counted.
    { at: AFTER, subject: 'flag me later', additions: 10 },
    { at: AFTER + 86_400, subject: 'change later', additions: 10 },
  ]);

  it('counts the scored commits before the date, automation and attribution left out, and scores them as any other', async () => {
    const run = await runPlugin(fixedModel, { commits }, { alongside: [attribution] });
    const result = run.result as RepositoryResult;
    // (2 x 0.8 + 22 x 0.1) / 24 = 0.158 (three decimals).
    expect(result.era_check).to.deep.equal({
      before: '2021-06-29',
      commits: 24,
      flagged: 2,
      rate: 0.083,
      mean_probability: 0.158,
    });
    // Never zeroed: the early flagged commits are still suspicions.
    expect(result.suspicions.filter((s) => s.evidence === 'inferred')).to.have.length(3);
    const text = renderReport(result, 'text').split('\n');
    // Compared with the mean probability (a share is a mean of probabilities), not the flagged rate.
    expect(text[1]).to.equal(
      'False-alarm floor: the 24 commits from before assistants existed (before 2021-06-29) read 15.8% assistant-made on average, 2 (8.3%) flagged: an assistant share below about 15.8% is noise here.',
    );
    expect(renderReport(result, 'html')).to.contain(
      '<p id="era-check">False-alarm floor: the 24 commits from before assistants existed (before 2021-06-29) read 15.8% assistant-made on average',
    );
    expect(JSON.parse(renderReport(result, 'json')).era_check).to.deep.equal(result.era_check);
  });

  it('is null, and says so, when fewer than 20 commits predate the date (none, or 19)', async () => {
    const later = makeCommits([
      { at: AFTER, subject: 'one', additions: 5 },
      { at: AFTER + 60, subject: 'two', additions: 5 },
    ]);
    const none = (await runPlugin(fixedModel, { commits: later })).result as RepositoryResult;
    expect(none).to.have.property('era_check', null);
    const nineteen = makeCommits(
      Array.from({ length: 19 }, (_, i) => ({ at: BEFORE - (19 - i) * 86_400, subject: `change ${i}`, additions: 3 })),
    );
    const few = (await runPlugin(fixedModel, { commits: nineteen })).result as RepositoryResult;
    expect(few).to.have.property('era_check', null);
    expect(renderReport(few, 'text').split('\n')[1]).to.equal(
      'False-alarm floor: none: fewer than 20 commits from before assistants existed (before 2021-06-29) to measure it on.',
    );
    expect(JSON.parse(renderReport(few, 'json'))).to.have.property('era_check', null);
  });

  it('is left out of a range (a push), where the history before it was not read', async () => {
    const pushed = (await runPlugin(fixedModel, { commits, push: true }, { alongside: [attribution] })).result;
    expect(pushed).to.not.have.property('era_check');
    expect(renderReport(pushed as RepositoryResult, 'text')).to.not.contain('False-alarm floor');
  });
});
