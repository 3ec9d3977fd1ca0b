import { expect } from 'chai';
import { chmod, mkdir, rm, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createRepository, makeTempDir, runGit, type TempDir } from '@cadence-detect/test-support';
import {
  chargeRework,
  loadKeptLines,
  readHistory,
  readWholeHistoryPass,
  saveKeptLines,
  type CommitFileCounts,
  type KeptLines,
  type PassFiles,
  type WholeHistoryPass,
} from '../src/index.js';

const HOUR = 3_600;
const T0 = Date.UTC(2025, 5, 2, 9) / 1000;

/** A history with what a patch says differently from numstat: renames, binaries, modes, links, blanks, merges. */
async function awkwardHistory(dir: string): Promise<void> {
  const repo = await createRepository(dir);
  const lines = (tag: string, n: number): string =>
    Array.from({ length: n }, (_, i) => `${tag} line ${i} of a file long enough to be followed\n`).join('');
  const binary = Buffer.from(Array.from({ length: 3000 }, (_, i) => (i * 7) % 256));
  let time = T0;
  const commit = async (message: string, work: () => Promise<void>): Promise<void> => {
    await work();
    await repo.commit({ message, date: (time += HOUR) });
  };
  const at = (file: string): string => path.join(dir, file);
  await commit('start', async () => {
    await mkdir(at('src'), { recursive: true });
    await writeFile(at('src/a.ts'), lines('a', 40));
    await writeFile(at('src/b.ts'), lines('b', 30));
    await writeFile(at('logo.png'), binary);
    await writeFile(at('run.sh'), 'echo run\n');
    await writeFile(at('empty.txt'), '');
    await writeFile(at('with "quote" and\ttab.txt'), lines('q', 3));
  });
  // A rename with edits, and a binary file renamed as it was (numstat says `-`, the patch nothing).
  await commit('move', async () => {
    await runGit(dir, ['mv', 'src/b.ts', 'src/c.ts']);
    await writeFile(at('src/c.ts'), `${lines('b', 28)}edited\n`);
    await mkdir(at('img'));
    await runGit(dir, ['mv', 'logo.png', 'img/logo.png']);
  });
  // A mode change alone, a binary edit, an empty file deleted, a quoted path edited.
  await commit('modes', async () => {
    await chmod(at('run.sh'), 0o755);
    await writeFile(at('img/logo.png'), Buffer.concat([binary, Buffer.from([0, 1, 2])]));
    await rm(at('empty.txt'));
    await writeFile(at('with "quote" and\ttab.txt'), lines('q', 5));
  });
  // Blank-only changes (counted by numstat, not by -w) and nearby edits that context would join.
  await commit('blanks', async () => {
    const text = lines('a', 40)
      .split('\n')
      .map((line, i) => (i % 5 === 0 ? `  ${line}` : i === 12 || i === 14 ? `${line} changed` : line))
      .join('\n');
    await writeFile(at('src/a.ts'), text);
  });
  // A file becoming a link (two patches, one numstat entry), on a branch merged with --no-ff.
  await runGit(dir, ['checkout', '-q', '-b', 'side']);
  await commit('link', async () => {
    await rm(at('run.sh'));
    await symlink('src/a.ts', at('run.sh'));
  });
  await runGit(dir, ['checkout', '-q', 'main']);
  await commit('main moves on', async () => {
    await writeFile(at('src/d.ts'), lines('d', 12));
  });
  await runGit(dir, ['merge', '-q', '--no-ff', '-m', 'Merge pull request #1', 'side'], {
    GIT_AUTHOR_DATE: `@${(time += HOUR)} +0000`,
    GIT_COMMITTER_DATE: `@${time} +0000`,
  });
}

/** The pass and the history read side by side, the read taking its files from the pass (as the engine runs them). */
async function readBesidePass(
  dir: string,
  alter?: ((files: (string | number)[]) => (string | number)[]) | null,
  loadKept?: () => Promise<KeptLines | null>,
): Promise<{
  history: Awaited<ReturnType<typeof readHistory>>;
  counts: CommitFileCounts | null;
  pass: WholeHistoryPass;
  planned: boolean;
}> {
  const head = (await runGit(dir, ['rev-parse', 'HEAD'])).trim();
  let plan: (replaysAll: boolean) => void = () => undefined;
  let counted: (counts: CommitFileCounts | null) => void = () => undefined;
  const files = new Promise<CommitFileCounts | null>((resolve) => (counted = resolve));
  let taken: CommitFileCounts | null = null;
  const passFiles: PassFiles = {
    replaysAll: new Promise((resolve) => (plan = resolve)),
    takeFiles: async () => {
      taken = await files;
      const counts = taken;
      if (!counts || !alter) return counts;
      return {
        filesOf: (hash: string) => {
          const found = counts.filesOf(hash);
          return found ? alter(found) : found;
        },
      };
    },
  };
  const [pass, history] = await Promise.all([
    readWholeHistoryPass(dir, head, {
      isExcludedByConfig: () => false,
      onPlan: plan,
      onCounts: counted,
      ...(loadKept ? { loadKept } : {}),
    }),
    readHistory(dir, { rev: head, excludeFiles: ['**/*.png'], passFiles }),
  ]);
  return { history, counts: taken, pass, planned: await passFiles.replaysAll };
}

describe('git-source: the history read takes its files from the line pass (pass-counts.ts)', function () {
  this.timeout(60_000);
  let work: TempDir;
  let dir: string;
  before(async () => {
    work = await makeTempDir('cadence-pass-counts-');
    dir = path.join(work.path, 'repo');
    await mkdir(dir);
    await awkwardHistory(dir);
  });
  after(() => work.remove());

  it('gives the same records and statistics as git log --numstat, commit for commit', async () => {
    const plain = await readHistory(dir, { rev: 'HEAD', excludeFiles: ['**/*.png'] });
    const { history, counts } = await readBesidePass(dir);
    expect(counts, 'the pass counted').to.not.equal(null);
    expect(history.commits).to.deep.equal(plain.commits);
    expect(history.stats).to.deep.equal(plain.stats);
    expect(plain.commits.map((c) => c.subject)).to.include.members(['move', 'modes', 'blanks', 'link']);
    // What the patch cannot say is left to numstat: the binary moved as it was, the mode change, the link.
    const subjectOf = new Map(plain.commits.map((c) => [c.hash, c.subject]));
    const recounted = plain.commits.filter((c) => counts!.filesOf(c.hash) === null).map((c) => subjectOf.get(c.hash));
    expect(recounted.sort()).to.deep.equal(['link', 'modes', 'move']);
    // Blank-only changes are counted as numstat counts them (the ledger's -w view does not count them).
    const blanks = plain.commits.find((c) => c.subject === 'blanks')!;
    expect(blanks.additions).to.equal(11);
    // A merge has no files in either read.
    expect(plain.commits.find((c) => c.isMerge)!.files).to.deep.equal([]);
  });

  it('the records carry the pass\u2019s counts (changed counts show in them), not a second numstat read', async () => {
    const { history } = await readBesidePass(dir, (files) =>
      files[0] === 'src/a.ts' && files[1] === 11 ? ['src/a.ts', 1011, 11] : files,
    );
    expect(history.commits.find((c) => c.subject === 'blanks')!.additions).to.equal(1011);
  });

  it('a kept pass keeps its counts: after new commits, the read takes the kept ones and the new ones', async () => {
    const copy = path.join(work.path, 'kept');
    await runGit(work.path, ['clone', '-q', dir, copy]);
    const file = path.join(work.path, 'kept-pass.json');
    const first = await readBesidePass(copy);
    await saveKeptLines(file, 'test', {
      ledger: first.pass.ledger,
      rework: chargeRework(first.pass, []),
      context: first.pass.context,
      ...(first.pass.counts ? { counts: first.pass.counts } : {}),
    });
    const repo = {
      commit: (message: string) =>
        runGit(copy, [
          '-c',
          'user.name=Kept',
          '-c',
          'user.email=kept@example.test',
          'commit',
          '-q',
          '-a',
          '-m',
          message,
        ]),
    };
    await writeFile(path.join(copy, 'src/d.ts'), 'one\n  two\nthree\n');
    await runGit(copy, ['add', '-A']);
    await repo.commit('after one');
    await runGit(copy, ['mv', 'src/d.ts', 'src/e.ts']);
    await writeFile(path.join(copy, 'src/e.ts'), 'one\ntwo\nthree\nfour\n');
    await runGit(copy, ['add', '-A']);
    await repo.commit('after two');
    const plain = await readHistory(copy, { rev: 'HEAD', excludeFiles: ['**/*.png'] });
    const warm = await readBesidePass(copy, null, () => loadKeptLines(file, 'test'));
    expect(warm.pass.resumedFrom, 'carried forward').to.not.equal(null);
    expect(warm.planned).to.equal(true);
    expect(warm.history.commits).to.deep.equal(plain.commits);
    // The older commits' files are the kept counts (a count changed there shows in the record).
    const altered = await readBesidePass(
      copy,
      (files) => (files[0] === 'src/a.ts' && files[1] === 11 ? ['src/a.ts', 1011, 11] : files),
      () => loadKeptLines(file, 'test'),
    );
    expect(altered.history.commits.find((c) => c.subject === 'blanks')!.additions).to.equal(1011);
    // A kept pass without counts (or with damaged ones): the read counts with numstat, the same records.
    const { counts: _dropped, ...withoutCounts } = (await loadKeptLines(file, 'test'))!;
    const uncounted = await readBesidePass(copy, null, () => Promise.resolve(withoutCounts));
    expect(uncounted.planned).to.equal(false);
    expect(uncounted.history.commits).to.deep.equal(plain.commits);
  });
});
