import { expect } from 'chai';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import {
  ADDED_LINE_CHARS,
  ADDED_LINES_PER_COMMIT,
  type AddedLine,
  type AddedLinesReader,
} from '@cadence-detect/plugin-sdk';
import {
  createRepository,
  makeTempDir,
  runGit,
  type FixtureRepository,
  type TempDir,
} from '@cadence-detect/test-support';
import { addedLinesOf } from '../src/added-lines.js';
import type { KeptLines } from '../src/ledger-cache.js';
import { loadKeptLines, saveKeptLines } from '../src/ledger-cache.js';
import { readWholeHistoryPass, type WholeHistoryPass } from '../src/whole-history-lines.js';

const DAY = 86_400;
const T0 = Date.UTC(2024, 0, 8, 9) / 1000;
const numbered = (tag: string, count: number): string =>
  `${Array.from({ length: count }, (_, i) => `${tag} ${i}`).join('\n')}\n`;

/** A reader that keeps what it was given and returns how many lines that was. */
function recordingReader(key = 'count@1'): AddedLinesReader & { seen: Map<number, AddedLine[]>; calls: number } {
  const seen = new Map<number, AddedLine[]>();
  const reader = {
    key,
    seen,
    calls: 0,
    read(lines: readonly AddedLine[]) {
      reader.calls++;
      seen.set(reader.calls, [...lines]);
      return lines.length;
    },
  };
  return reader;
}

describe('added lines read in the one pass', function () {
  this.timeout(60_000);
  let temp: TempDir;
  let count = 0;
  before(async () => {
    temp = await makeTempDir('cadence-added-lines-');
  });
  after(() => temp.remove());

  async function repository(): Promise<FixtureRepository> {
    const dir = path.join(temp.path, `repo-${++count}`);
    await mkdir(dir);
    return createRepository(dir, []);
  }
  const head = async (dir: string): Promise<string> => (await runGit(dir, ['rev-parse', 'HEAD'])).trim();
  const pass = async (dir: string, readers: AddedLinesReader[], kept?: KeptLines): Promise<WholeHistoryPass> =>
    readWholeHistoryPass(dir, await head(dir), {
      isExcludedByConfig: (p) => p.endsWith('.lock'),
      readers,
      ...(kept ? { loadKept: async () => kept } : {}),
    });

  it('gives each commit that is no merge its added lines of followed files, once, and nothing of a merge', async () => {
    const repo = await repository();
    const first = await repo.commit({
      message: 'Start',
      date: T0,
      files: { 'src/a.ts': numbered('a', 3), 'deps.lock': numbered('lock', 50) },
    });
    await runGit(repo.dir, ['checkout', '-q', '-b', 'side']);
    const side = await repo.commit({ message: 'Side', date: T0 + DAY, files: { 'src/b.ts': numbered('b', 4) } });
    await runGit(repo.dir, ['checkout', '-q', 'main']);
    const main = await repo.commit({
      message: 'Main',
      date: T0 + 2 * DAY,
      files: { 'src/a.ts': `${numbered('a', 3)}more\n` },
    });
    await runGit(repo.dir, ['merge', '-q', '--no-ff', '-m', 'Merge side', 'side'], {
      GIT_AUTHOR_DATE: `@${T0 + 3 * DAY} +0000`,
      GIT_COMMITTER_DATE: `@${T0 + 3 * DAY} +0000`,
    });
    const reader = recordingReader();
    const result = await pass(repo.dir, [reader]);
    const readings = result.readings.get(reader.key)!;
    // The lock file is excluded: the first commit's readings are its three source lines.
    expect(Object.fromEntries(readings)).to.deep.equal({ [first]: 3, [side]: 4, [main]: 1 });
    expect(reader.calls).to.equal(3);
    const lines = [...reader.seen.values()].flat();
    expect(lines.filter((l) => l.path === 'src/b.ts').map((l) => l.text)).to.deep.equal(['b 0', 'b 1', 'b 2', 'b 3']);
    expect(lines.some((l) => l.path === 'deps.lock')).to.equal(false);
  });

  it(`cuts a commit at ${ADDED_LINES_PER_COMMIT} lines of ${ADDED_LINE_CHARS} characters`, () => {
    const long = 'x'.repeat(ADDED_LINE_CHARS + 40);
    const diff = (file: string, added: string[]) => ({
      oldPath: null,
      newPath: file,
      renameFrom: null,
      renameTo: null,
      binary: false,
      hunks: [],
      added,
    });
    const lines = addedLinesOf(
      [diff('a.ts', [long, ...Array.from({ length: 700 }, (_, i) => `line ${i}`)]), diff('b.ts', ['never read'])],
      () => true,
    );
    expect(lines).to.have.length(ADDED_LINES_PER_COMMIT);
    expect(lines[0]!.text).to.have.length(ADDED_LINE_CHARS);
    expect(lines.some((l) => l.path === 'b.ts')).to.equal(false);
    const binary = addedLinesOf(
      [{ ...diff('c.png', ['\u0000']), binary: true }, diff('d.lock', ['x'])],
      (p) => !p.endsWith('.lock'),
    );
    expect(binary).to.deep.equal([]);
  });

  it('keeps a reader\u2019s numbers with the pass: carried forward, only the new commit read; another key replays the whole history', async () => {
    const repo = await repository();
    for (let i = 0; i < 3; i++)
      await repo.commit({
        message: `Step ${i}`,
        date: T0 + i * DAY,
        files: { [`src/f${i}.ts`]: numbered(`f${i}`, i + 2) },
      });
    const first = await pass(repo.dir, [recordingReader()]);
    const file = path.join(temp.path, `kept-${count}.json`);
    await saveKeptLines(file, 'k', {
      ledger: first.ledger,
      rework: { lines: new Map(), marked: new Map() },
      context: first.context,
      readings: first.readings,
    });
    const kept = (await loadKeptLines(file, 'k'))!;
    const added = await repo.commit({ message: 'More', date: T0 + 5 * DAY, files: { 'src/new.ts': numbered('n', 7) } });
    const again = recordingReader();
    const resumed = await pass(repo.dir, [again], kept);
    expect(resumed.resumedFrom).to.not.equal(null);
    expect(again.calls).to.equal(1);
    expect([...resumed.readings.get(again.key)!.values()]).to.deep.equal([2, 3, 4, 7]);
    expect(resumed.readings.get(again.key)!.get(added)).to.equal(7);
    // A damaged kept file (a reading that is no number) is an empty cache.
    const damaged = path.join(temp.path, `damaged-${count}.json`);
    await writeFile(
      damaged,
      (await readFile(file, 'utf8')).replace(/"count@1":\{"([0-9a-f]+)":\d+/, '"count@1":{"$1":"x"'),
    );
    expect(await loadKeptLines(damaged, 'k')).to.equal(null);
    const other = recordingReader('count@2');
    const replayed = await pass(repo.dir, [other], kept);
    expect(replayed.resumedFrom).to.equal(null);
    expect(other.calls).to.equal(4);
  });

  it('drops a reader that throws or returns no number, keeps the others and the pass', async () => {
    const repo = await repository();
    await repo.commit({ message: 'One', date: T0, files: { 'src/a.ts': numbered('a', 2) } });
    await repo.commit({ message: 'Two', date: T0 + DAY, files: { 'src/b.ts': numbered('b', 2) } });
    const good = recordingReader('good');
    const throwing: AddedLinesReader = {
      key: 'throws',
      read: () => {
        throw new Error('reader broke');
      },
    };
    const nan: AddedLinesReader = { key: 'nan', read: () => Number.NaN };
    const result = await pass(repo.dir, [throwing, good, nan]);
    expect([...result.readings.keys()]).to.deep.equal(['good']);
    expect(result.readerFailures.map((f) => f.key)).to.deep.equal(['throws', 'nan']);
    expect(String(result.readerFailures[0]!.error)).to.contain('reader broke');
    expect(good.calls).to.equal(2);
    expect(result.ledger.files.get('src/b.ts')).to.have.length(2);
  });
});
