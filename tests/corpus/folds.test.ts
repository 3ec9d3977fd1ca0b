import { expect } from 'chai';
import { validate, type CorpusRow, type Validation } from '../../bench/corpus/folds.mjs';

type Row = CorpusRow & { features: number[] };

/** A small corpus: six repositories of two owners, assistant commits shifted on the first two features. */
function corpus(): { rows: Row[]; eraCheck: Row[] } {
  let seed = 7;
  const random = (): number => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return seed / 2 ** 32;
  };
  const rows: Row[] = [];
  const eraCheck: Row[] = [];
  const repos = ['north/a', 'north/b', 'north/c', 'south/d', 'south/e', 'south/f'];
  for (const repo of repos) {
    for (let i = 0; i < 40; i++) {
      const assistant = i % 2 === 0;
      const shift = assistant ? 1.2 : 0;
      const row: Row = {
        repo,
        label: assistant ? 'assistant' : 'human',
        assistant: assistant ? 'claude' : null,
        origin: assistant ? 'written' : null,
        hash: `${repo}-${i}`,
        explicit: false,
        message: assistant ? ['Add the parser for headers', 'It reads each header line.'] : ['fix', ''],
        features: [random() + shift, random() + shift / 2, random()],
        code: null,
      };
      (i < 36 ? rows : eraCheck).push(i < 36 ? row : { ...row, label: 'human', assistant: null, origin: null });
    }
  }
  return { rows, eraCheck };
}

describe('corpus folds (bench/corpus/folds.mjs)', function () {
  this.timeout(60_000);
  const quiet = (): void => undefined;

  it('gives the same figures, cut-offs and scores in worker threads as one fold after another', async () => {
    const { rows, eraCheck } = corpus();
    const run = async (workers: number) => {
      const scored: [string, number, number][] = [];
      const folds: string[] = [];
      const summary = await validate(rows, {
        log: (line: string) => folds.push(line),
        eraCheck,
        onScored: (row, p, flagAt) => scored.push([row.hash, p, flagAt]),
        tokens: { names: ['message_tokens'], unknownInHeldOut: [] },
        workers,
      });
      return { summary, scored, folds: folds.sort() };
    };
    const alone = await run(1);
    const threaded = await run(3);
    expect(threaded.summary).to.deep.equal(alone.summary);
    expect(threaded.scored).to.deep.equal(alone.scored);
    expect(threaded.folds).to.deep.equal(alone.folds);
    expect(alone.scored).to.have.length(rows.length);
    expect(alone.summary.era_check.commits).to.equal(eraCheck.length);
    // The shifted features separate the classes: the folds are not reading noise.
    expect(alone.summary.auc).to.be.greaterThan(0.8);
  });

  it('leaves the held-out repository’s owner out of training when asked', async () => {
    const { rows } = corpus();
    const figures = async (ownerOut: boolean) => {
      const previous = process.env.CORPUS_LEAVE_OWNER_OUT;
      process.env.CORPUS_LEAVE_OWNER_OUT = ownerOut ? '1' : '0';
      // North's assistant commits show on the third feature alone, south's on the first two: only
      // north's other repositories teach a fold what north's assistant commits look like.
      const shifted = rows.map((r) =>
        r.repo.startsWith('north/') && r.label === 'assistant'
          ? { ...r, features: [r.features[0]! - 1.2, r.features[1]! - 0.6, r.features[2]! + 2] }
          : r,
      );
      try {
        return await validate(shifted, { log: quiet, workers: 1 });
      } finally {
        if (previous === undefined) delete process.env.CORPUS_LEAVE_OWNER_OUT;
        else process.env.CORPUS_LEAVE_OWNER_OUT = previous;
      }
    };
    const repoOut = await figures(false);
    const ownerOut = await figures(true);
    const northMean = (summary: Validation): number => {
      const north = summary.by_repository.filter((r) => r.repo.startsWith('north/'));
      return north.reduce((s, r) => s + (r.mean_p_assistant ?? 0), 0) / north.length;
    };
    // Trained on the same owner's other repositories, north's assistant commits score higher.
    expect(northMean(repoOut)).to.be.greaterThan(northMean(ownerOut));
  });
});
