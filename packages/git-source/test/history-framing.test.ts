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
import type { CommitRecord } from '@cadence-detect/plugin-sdk';
import { readHistory, readLineTree } from '../src/index.js';
import { logArguments } from '../src/history-log.js';
import { createLogStreamParser, LOG_FORMAT, type LogHeader } from '../src/log-stream.js';

/**
 * Commit data is attacker-controlled: messages and identities may hold any byte but NUL. These
 * repositories are valid (`git fsck --strict` passes) and try to forge, hide or drop records.
 */
const FAKE_HASH = 'f'.repeat(40);
const T0 = Date.UTC(2021, 3, 1, 9) / 1000;

/** A message that, read with the old \x1e/\x1f/\x1d framing, is a whole commit of its own. */
const FORGED_MESSAGE = [
  'Refactor the reader',
  '',
  `\x1e${FAKE_HASH}\x1f\x1fForger\x1fforger@example.test\x1f${T0}\x1fForger\x1fforger@example.test\x1f${T0}\x1fForged record\x1d`,
  '99999\t0\tforged.txt',
].join('\n');

async function newRepository(work: TempDir, name: string): Promise<FixtureRepository> {
  const dir = path.join(work.path, name);
  await mkdir(dir);
  return createRepository(dir);
}

/** The parser's events over `text` delivered in pieces of `size` characters, as one list. */
function parseInPieces(text: string, size: number): unknown[] {
  const events: unknown[] = [];
  const parser = createLogStreamParser({
    commit: (header: LogHeader) => events.push(['commit', ...header]),
    file: (added, deleted, file) => events.push(['file', added, deleted, file]),
    end: () => events.push(['end']),
  });
  for (let i = 0; i < text.length; i += size) parser.push(text.slice(i, i + size));
  parser.finish();
  return events;
}

function byHash(commits: readonly CommitRecord[]): Map<string, CommitRecord> {
  return new Map(commits.map((c) => [c.hash, c]));
}

describe('history framing: commit data cannot forge, hide or drop records', function () {
  this.timeout(60_000);
  let work: TempDir;

  before(async () => {
    work = await makeTempDir('cadence-framing-');
  });
  after(() => work.remove());

  it('reads every commit with its real size when messages and names hold the old separators', async () => {
    const repo = await newRepository(work, 'separators');
    const expected = new Map<string, { additions: number; subject: string; authorName: string }>();
    const add = async (message: string, lines: number, file: string, name = 'Ada Example'): Promise<void> => {
      const hash = await repo.commit({
        message,
        date: T0 + expected.size * 3600,
        addLines: lines,
        file,
        author: { name, email: 'ada@example.test' },
      });
      expected.set(hash, { additions: lines, subject: message.split('\n')[0]!, authorName: name });
    };
    await add('Initial import', 10, 'src/main.txt');
    // Old framing: the \x1e starts a record that has no header end, and the real one is cut short.
    await add('Small cleanup\x1e', 3000, 'src/big.txt');
    // Old framing: the header ends inside the author name, leaving too few fields.
    await add('Add generated tables', 5000, 'src/huge.txt', 'Eve\x1dMallory');
    await add('Split\x1fparser', 12, 'src/split.txt', 'Mal\x1flory');
    await add(FORGED_MESSAGE, 7, 'src/reader.txt', 'Trudy\x1eT');
    await add('Final touch', 4, 'src/main.txt');
    await repo.git(['fsck', '--strict']);

    const { commits, stats } = await readHistory(repo.dir, { rev: 'HEAD', excludeFiles: [] });

    expect(commits.map((c) => c.hash)).to.deep.equal(repo.hashes);
    const read = byHash(commits);
    for (const [hash, want] of expected) {
      const commit = read.get(hash)!;
      expect(
        { additions: commit.additions, subject: commit.subject, authorName: commit.authorName },
        hash,
      ).to.deep.equal(want);
    }
    expect(commits.some((c) => c.hash === FAKE_HASH)).to.equal(false);
    expect(commits.flatMap((c) => c.files.map((f) => f.path))).to.not.include('forged.txt');
    expect(stats.totalAdditions).to.equal(10 + 3000 + 5000 + 12 + 7 + 4);
  });

  it('parses the same events whatever the chunk boundaries', async () => {
    const repo = await newRepository(work, 'chunks');
    await repo.commit({ message: 'First', date: T0, addLines: 3 });
    await repo.commit({ message: FORGED_MESSAGE, date: T0 + 60, files: { 'a\tb.txt': 'x\n', 'c.txt': 'y\n' } });
    await repo.commit({ message: 'Move', date: T0 + 120, files: { 'c.txt': null, 'd/c.txt': 'y\n' } });
    await repo.commit({ message: 'Empty', date: T0 + 180 });
    const text = await runGit(repo.dir, ['log', '-z', '--numstat', LOG_FORMAT]);

    const whole = parseInPieces(text, text.length);

    expect(whole.filter((e) => (e as string[])[0] === 'commit')).to.have.length(4);
    expect(whole).to.deep.include(['file', '0', '0', 'd/c.txt']);
    for (const size of [1, 2, 3, 7, 41]) expect(parseInPieces(text, size), `pieces of ${size}`).to.deep.equal(whole);
  });

  it('reads paths with a tab and a newline, and keeps the new path of a rename', async () => {
    const repo = await newRepository(work, 'paths');
    const odd = 'odd\tname\nwith newline.txt';
    const renamed = 'moved\tdir/new\nname.txt';
    await repo.commit({
      message: 'Odd names',
      date: T0,
      files: { [odd]: 'a\nb\nc\n', 'notes/old name.txt': 'one\ntwo\n' },
    });
    await repo.commit({
      message: 'Move notes',
      date: T0 + 600,
      files: { 'notes/old name.txt': null, [renamed]: 'one\ntwo\n' },
    });
    await repo.commit({ message: 'Edit moved', date: T0 + 1200, files: { [renamed]: 'one\ntwo\nthree\n' } });
    await repo.git(['fsck', '--strict']);

    const { commits } = await readHistory(repo.dir, { rev: 'HEAD', excludeFiles: ['notes/**'] });

    expect(
      commits.map((c) => c.files.map((f) => ({ path: f.path, additions: f.additions, excluded: f.excluded }))),
    ).to.deep.equal([
      [
        { path: 'notes/old name.txt', additions: 2, excluded: true },
        { path: odd, additions: 3, excluded: false },
      ],
      [{ path: renamed, additions: 0, excluded: false }],
      [{ path: renamed, additions: 1, excluded: false }],
    ]);
    expect(commits.map((c) => c.additions)).to.deep.equal([3, 0, 1]);
  });

  it('reads merges, empty commits and a repository with SHA-256 object names', async () => {
    const dir = path.join(work.path, 'sha256');
    await mkdir(dir);
    await runGit(dir, ['init', '--quiet', '--object-format=sha256', '--initial-branch=main']);
    const repo = await createRepository(dir);
    await repo.commit({ message: 'Base', date: T0, addLines: 5 });
    await repo.git(['checkout', '--quiet', '-b', 'side']);
    await repo.commit({ message: 'Side work', date: T0 + 600, addLines: 8, file: 'src/side.txt' });
    await repo.git(['checkout', '--quiet', 'main']);
    await repo.commit({ message: 'Nothing changed', date: T0 + 1200 });
    await runGit(dir, ['merge', '--quiet', '--no-ff', '-m', 'Merge side', 'side'], {
      GIT_AUTHOR_DATE: `${T0 + 1800} +0000`,
      GIT_COMMITTER_DATE: `${T0 + 1800} +0000`,
    });

    const { commits } = await readHistory(dir, { rev: 'HEAD', excludeFiles: [] });

    expect(commits.map((c) => c.hash.length)).to.deep.equal([64, 64, 64, 64]);
    expect(commits.map((c) => [c.subject, c.additions, c.isMerge])).to.deep.equal([
      ['Base', 5, false],
      ['Side work', 8, false],
      ['Nothing changed', 0, false],
      ['Merge side', 0, true],
    ]);
    // The tree's lines are counted against SHA-256's empty tree (the head's length says the format).
    const head = commits.at(-1)!.hash;
    const tree = await readLineTree(dir, head, () => false);
    expect([...tree.files.values()].reduce<number>((sum, lines) => sum + (lines ?? 0), 0)).to.equal(13);
  });
  it('counts each file as numstat with the indent heuristic does, reading without it (it slides hunks, never counts)', async () => {
    const repo = await newRepository(work, 'heuristic');
    // Lines found by a search for a change the heuristic places elsewhere than git's plain diff.
    const before = ['def f():', '}', '', '        z()', '    x = 1', '', '}', '', '  }'];
    const after = ['def f():', '}', '    if y:', '  }', ...before];
    const text = (lines: string[]): string => `${lines.join('\n')}\n`;
    await repo.commit({ message: 'Before', date: T0, files: { 'src/f.py': text(before) } });
    await repo.commit({ message: 'Inserted', date: T0 + 60, files: { 'src/f.py': text(after) } });
    await repo.commit({ message: 'Taken out', date: T0 + 120, files: { 'src/f.py': text(before) } });
    // The heuristic places these hunks elsewhere: the history is one where turning it off shows.
    const patch = (heuristic: string): Promise<string> =>
      runGit(repo.dir, ['log', '-p', '-U0', heuristic, '--format=%H']);
    expect(await patch('--no-indent-heuristic')).to.not.equal(await patch('--indent-heuristic'));

    const { commits } = await readHistory(repo.dir, { rev: 'HEAD', excludeFiles: [] });
    const numstat = await runGit(repo.dir, ['log', '--numstat', '--indent-heuristic', '--format=@%s']);
    const counted = commits.map((c) => [c.subject, ...c.files.map((f) => `${f.additions}/${f.deletions}`)].join(' '));
    const expected: string[] = [];
    for (const line of numstat.split('\n'))
      if (line.startsWith('@')) expected.unshift(line.slice(1));
      else if (line) expected[0] += ` ${line.split('\t').slice(0, 2).join('/')}`;
    expect(counted).to.deep.equal(expected);
    expect(logArguments({ rev: 'HEAD', mailmap: { blob: '' } })).to.include('--no-indent-heuristic');
  });
});
