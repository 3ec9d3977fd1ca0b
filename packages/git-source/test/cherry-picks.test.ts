import { expect } from 'chai';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createRepository, makeTempDir, runGit, type TempDir } from '@cadence-detect/test-support';
import { copiedCommits, patchDiffInvocation } from '../src/cherry-picks.js';
import { findPrlimit } from '../src/git-process.js';
import { readHistory, type GitBounds } from '../src/index.js';

const T0 = Date.UTC(2019, 4, 1, 9) / 1000;
const ADA = { name: 'Ada Example', email: 'ada@example.test' };
const BOB = { name: 'Bob Example', email: 'bob@example.test' };
const IDENTITY = {
  GIT_COMMITTER_NAME: 'Release Manager',
  GIT_COMMITTER_EMAIL: 'release@example.test',
  GIT_COMMITTER_DATE: `${T0 + 86_400} +0000`,
};

/**
 * The shape both tests read: Ada's change on the main branch, cherry-picked onto `release` (the
 * copy keeps her author date), another commit of hers there stamped with the same second (a
 * script's commits: a different patch), and `release` merged back (its side wins where both added
 * a file). `meanwhile` runs on the main branch after the change. Returns the merge's hash.
 */
async function historyWithCopy(
  dir: string,
  change: { readonly message: string; readonly files: Record<string, string> },
  sameSecond: { readonly message: string; readonly file: string; readonly content: string },
  meanwhile: (repo: Awaited<ReturnType<typeof createRepository>>) => Promise<unknown> = async () => undefined,
): Promise<string> {
  await mkdir(dir);
  const repo = await createRepository(dir, [{ message: 'Start', date: T0, author: ADA, files: { 'a.txt': 'one\n' } }]);
  await runGit(dir, ['checkout', '-q', '-b', 'release']);
  await runGit(dir, ['checkout', '-q', repo.branch]);
  const original = await repo.commit({ ...change, date: T0 + 3600, author: ADA });
  await meanwhile(repo);
  await runGit(dir, ['checkout', '-q', 'release']);
  await runGit(dir, ['cherry-pick', original], IDENTITY);
  await writeFile(path.join(dir, sameSecond.file), sameSecond.content);
  await runGit(dir, ['add', sameSecond.file]);
  await runGit(dir, ['commit', '-q', '-m', sameSecond.message], {
    ...IDENTITY,
    GIT_AUTHOR_NAME: ADA.name,
    GIT_AUTHOR_EMAIL: ADA.email,
    GIT_AUTHOR_DATE: `${T0 + 3600} +0000`,
  });
  await runGit(dir, ['checkout', '-q', repo.branch]);
  await runGit(dir, ['merge', '-q', '--no-ff', '-X', 'theirs', '-m', 'Merge release', 'release'], IDENTITY);
  return (await runGit(dir, ['rev-parse', 'HEAD'])).trim();
}

describe('git-source: a cherry-picked copy is no new commit of its author', function () {
  this.timeout(60_000);
  let work: TempDir;
  before(async () => {
    work = await makeTempDir('cadence-cherry-');
  });
  after(() => work.remove());

  it('takes its original\u2019s interval (same author, author date and patch id), where a different change of the same second keeps its own', async () => {
    const dir = path.join(work.path, 'repo');
    const head = await historyWithCopy(
      dir,
      { message: 'Fix the parser', files: { 'b.txt': 'fixed\n' } },
      { message: 'Same second, another change', file: 'd.txt', content: 'another change\n' },
      (repo) => repo.commit({ message: 'Other work', date: T0 + 7200, author: BOB, files: { 'c.txt': 'other\n' } }),
    );
    const { commits } = await readHistory(dir, { rev: head, excludeFiles: [] });
    const fixes = commits.filter((c) => c.subject === 'Fix the parser');
    expect(fixes).to.have.length(2);
    // Both the original and its copy: Ada's previous commit is Start, an hour earlier.
    expect(fixes.map((c) => c.previousAuthorTime)).to.deep.equal([T0, T0]);
    // A different change in the same second is a commit of its own: 0 s after the fix.
    expect(commits.find((c) => c.subject === 'Same second, another change')!.previousAuthorTime).to.equal(T0 + 3600);
  });

  it('diffs under the history read\u2019s bounds: a blob above the cap is compared by its id, never line by line', async () => {
    const bounds: GitBounds = { maxDiffBlobBytes: 64 * 1024, addressSpaceBytes: 1024 * 1024 * 1024 };
    const invocation = patchDiffInvocation(work.path, bounds);
    expect(invocation.args).to.include(`core.bigFileThreshold=${64 * 1024}`);
    if (findPrlimit() !== null) {
      expect(invocation.command).to.equal(findPrlimit());
      expect(invocation.args).to.include(`--as=${1024 * 1024 * 1024}`);
    }

    // Files of short lines over the cap: what a line diff holds a record per line of.
    const lines = (tag: string): string => Array.from({ length: 60_000 }, (_, i) => `${tag}${i % 7}`).join('\n');
    const dir = path.join(work.path, 'big');
    const head = await historyWithCopy(
      dir,
      { message: 'Add the table', files: { 'table.txt': lines('t') } },
      { message: 'Same second, another table', file: 'table.txt', content: lines('u') },
    );
    const history = await readHistory(dir, { rev: head, excludeFiles: [], bounds });
    expect(history.oversizedFiles).to.be.greaterThan(0);
    const tables = history.commits.filter((c) => c.subject === 'Add the table');
    expect(tables).to.have.length(2);
    // The copy adds the same blob: the same patch id, so it takes its original's interval.
    expect(tables.map((c) => c.previousAuthorTime)).to.deep.equal([T0, T0]);
    // Another blob at the same path, in the same second: its patch names another blob.
    expect(history.commits.find((c) => c.subject === 'Same second, another table')!.previousAuthorTime).to.equal(
      T0 + 3600,
    );
  });

  it('fails the read with ERR_REPOSITORY_TOO_LARGE when the copy check\u2019s diff reaches its memory ceiling', async () => {
    // util-linux's prlimit is a test prerequisite (scripts/test-prerequisites.mjs): the ceiling is real here.
    expect(findPrlimit(), 'prlimit').to.not.equal(null);
    const dir = path.join(work.path, 'ceiling');
    await mkdir(dir);
    // Two million one-character lines on both sides of one change: git's line diff of it holds about
    // 170 MiB, under the default 1 GiB ceiling and over a 160 MiB one.
    const shortLines = (pick: (i: number) => string): string =>
      Array.from({ length: 2_000_000 }, (_, i) => pick(i)).join('\n');
    await createRepository(dir, [
      { message: 'Start', date: T0, author: ADA, files: { 'big.txt': shortLines(() => 'a') } },
      {
        message: 'Rewrite the table',
        date: T0 + 3600,
        author: ADA,
        files: { 'big.txt': shortLines((i) => 'bcdefgh'[(i * 7919) % 7]!) },
      },
      { message: 'Same second, a note', date: T0 + 3600, author: ADA, files: { 'note.txt': 'note\n' } },
    ]);
    const head = (await runGit(dir, ['rev-parse', 'HEAD'])).trim();
    const { commits } = await readHistory(dir, { rev: head, excludeFiles: [] });
    const tight: GitBounds = { maxDiffBlobBytes: 16 * 1024 * 1024, addressSpaceBytes: 160 * 1024 * 1024 };
    const failure = await copiedCommits(dir, commits, undefined, tight).then(
      () => null,
      (error: unknown) => error,
    );
    expect(failure).to.have.property('code', 'ERR_REPOSITORY_TOO_LARGE');
  });
});
