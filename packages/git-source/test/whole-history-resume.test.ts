import { expect } from 'chai';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import {
  createRepository,
  makeTempDir,
  runGit,
  type FixtureRepository,
  type TempDir,
} from '@cadence-detect/test-support';
import { writerIndex } from '../src/history-ledger.js';
import type { KeptLines } from '../src/ledger-cache.js';
import { readWholeHistoryPass, type WholeHistoryPass } from '../src/whole-history-lines.js';

const DAY = 86_400;
const T0 = Date.UTC(2024, 0, 8, 9) / 1000;
const lines = (tag: string, count: number) =>
  Array.from({ length: count }, (_, i) => `${tag} line ${i}: value ${i * 7}`);

/** Each followed file's lines, by the commit that wrote them. */
function writers(pass: WholeHistoryPass): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [file, values] of pass.ledger.files) out[file] = values.map((v) => pass.ledger.commits[writerIndex(v)]!);
  return out;
}

const keep = (pass: WholeHistoryPass): KeptLines => ({
  ledger: pass.ledger,
  rework: { lines: new Map(), marked: new Map() },
  context: pass.context,
});

describe('the one pass, carried forward from a kept pass', function () {
  this.timeout(60_000);
  let temp: TempDir;
  let count = 0;
  before(async () => {
    temp = await makeTempDir('cadence-resume-');
  });
  after(() => temp.remove());

  async function repository(): Promise<FixtureRepository> {
    const dir = path.join(temp.path, `repo-${++count}`);
    await mkdir(dir);
    const repo = await createRepository(dir, []);
    for (let i = 0; i < 3; i++)
      await repo.commit({
        message: `Step ${i}`,
        date: T0 + i * DAY,
        files: { [`src/f${i}.ts`]: `${lines(`f${i}`, 6).join('\n')}\n` },
      });
    return repo;
  }
  const head = async (dir: string) => (await runGit(dir, ['rev-parse', 'HEAD'])).trim();
  const pass = async (dir: string, kept?: KeptLines) =>
    readWholeHistoryPass(dir, await head(dir), {
      isExcludedByConfig: () => false,
      ...(kept ? { loadKept: async () => kept } : {}),
    });

  it('replays only the commits since the kept head when the history only grew', async () => {
    const repo = await repository();
    const first = await pass(repo.dir);
    await repo.commit({ message: 'More', date: T0 + 5 * DAY, files: { 'src/f0.ts': `${lines('g', 3).join('\n')}\n` } });
    let replayed = 0;
    const resumed = await readWholeHistoryPass(repo.dir, await head(repo.dir), {
      isExcludedByConfig: () => false,
      loadKept: async () => keep(first),
      onProgress: (done, of) => (replayed = Math.max(replayed, of)),
    });
    expect(resumed.resumedFrom).to.not.equal(null);
    expect(replayed).to.equal(1);
    expect(writers(resumed)).to.deep.equal(writers(await pass(repo.dir)));
  });

  it('replays the whole history after a force-push, a branch that forked before the kept head, or a kept head the repository lacks', async () => {
    const repo = await repository();
    const kept = keep(await pass(repo.dir));
    // A branch from before the kept head, merged after it.
    await runGit(repo.dir, ['checkout', '-q', '-b', 'side', 'HEAD~1']);
    await repo.commit({
      message: 'Side',
      date: T0 + 6 * DAY,
      files: { 'src/side.ts': `${lines('s', 4).join('\n')}\n` },
    });
    await runGit(repo.dir, ['checkout', '-q', 'main']);
    await runGit(repo.dir, ['merge', '-q', '--no-ff', '-m', 'Merge side', 'side'], {
      GIT_AUTHOR_DATE: `@${T0 + 7 * DAY} +0000`,
      GIT_COMMITTER_DATE: `@${T0 + 7 * DAY} +0000`,
    });
    const merged = await pass(repo.dir, kept);
    expect(merged.resumedFrom).to.equal(null);
    expect(writers(merged)).to.deep.equal(writers(await pass(repo.dir)));
    // A rewritten history: the kept head is no ancestor any more.
    const keptMerge = keep(merged);
    await runGit(repo.dir, ['reset', '-q', '--hard', 'HEAD~2']);
    await repo.commit({
      message: 'Rewritten',
      date: T0 + 8 * DAY,
      files: { 'src/f1.ts': `${lines('r', 2).join('\n')}\n` },
    });
    const rewritten = await pass(repo.dir, keptMerge);
    expect(rewritten.resumedFrom).to.equal(null);
    expect(writers(rewritten)).to.deep.equal(writers(await pass(repo.dir)));
    // A kept head this repository does not hold, and one that is no commit id at all.
    for (const headOf of ['0123456789abcdef0123456789abcdef01234567', '--output=/tmp/x']) {
      const foreign = { ...keptMerge, ledger: { ...keptMerge.ledger, head: headOf } };
      const read = await pass(repo.dir, foreign);
      expect(read.resumedFrom, headOf).to.equal(null);
      expect(writers(read)).to.deep.equal(writers(rewritten));
    }
  });
});
