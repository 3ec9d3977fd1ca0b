import { expect } from 'chai';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import {
  createRepository,
  makeTempDir,
  runGit,
  type FixtureRepository,
  type TempDir,
} from '@cadence-detect/test-support';
import { replayLedger, writerIndex, type Ledger, type LedgerDeletion } from '../src/history-ledger.js';

const DAY = 86_400;
const T0 = Date.UTC(2024, 0, 8, 9) / 1000;

/** A deterministic generator (mulberry32): the same history on every run. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Every commit's parents, as the history read gives them. */
async function parentsOf(dir: string): Promise<Map<string, string[]>> {
  const out = await runGit(dir, ['log', '--format=%H %P', 'HEAD']);
  return new Map(
    out
      .trim()
      .split('\n')
      .map((line) => {
        const [hash, ...parents] = line.split(' ');
        return [hash!, parents];
      }),
  );
}

/** `git blame -w -M` of every text file at HEAD: per file, each line's commit. */
async function blameAll(dir: string): Promise<Map<string, string[]>> {
  const files = (await runGit(dir, ['ls-tree', '-r', '--name-only', 'HEAD'])).trim().split('\n').filter(Boolean);
  const blamed = new Map<string, string[]>();
  for (const file of files) {
    const out = await runGit(dir, ['blame', '-w', '-M', '--porcelain', 'HEAD', '--', file]);
    const lines: string[] = [];
    for (const line of out.split('\n')) {
      const header = /^([0-9a-f]{40}) \d+ (\d+)/.exec(line);
      if (header) lines[Number(header[2]) - 1] = header[1]!;
    }
    blamed.set(file, lines);
  }
  return blamed;
}

/** Commits `f.py` as each of `versions` in turn (its lines), a day apart. */
async function commitVersions(repo: FixtureRepository, versions: readonly (readonly string[])[]): Promise<void> {
  for (const [i, lines] of versions.entries())
    await repo.commit({ message: `version ${i}`, date: T0 + i * DAY, files: { 'f.py': `${lines.join('\n')}\n` } });
}

async function ledgerOf(dir: string, deletions: LedgerDeletion[] = []): Promise<Ledger> {
  return replayLedger(dir, (await runGit(dir, ['rev-parse', 'HEAD'])).trim(), {
    follows: () => true,
    parents: await parentsOf(dir),
    onDeletion: (deletion) => deletions.push(deletion),
  });
}

/** Lines where the ledger and blame name the same writer, of all lines blame names. */
function agreement(ledger: Ledger, blamed: Map<string, string[]>): { same: number; total: number } {
  let same = 0;
  let total = 0;
  for (const [file, writers] of blamed) {
    const values = ledger.files.get(file) ?? [];
    writers.forEach((writer, i) => {
      total++;
      const value = values[i];
      if (value !== undefined && value >= 0 && ledger.commits[writerIndex(value)] === writer) same++;
    });
  }
  return { same, total };
}

const lines = (prefix: string, count: number): string[] =>
  Array.from({ length: count }, (_, i) => `const ${prefix}_${i} = computeTheValueOf(${i}, "${prefix}");`);

describe('git-source: the history ledger (one pass over the diffs)', function () {
  this.timeout(120_000);
  let work: TempDir;
  before(async () => {
    work = await makeTempDir('cadence-ledger-');
  });
  after(() => work.remove());

  async function repository(name: string): Promise<FixtureRepository> {
    const dir = path.join(work.path, name);
    await mkdir(dir);
    return createRepository(dir);
  }

  /** Edits `file` at random: lines inserted, deleted and rewritten, written to the working tree. */
  async function edit(repo: FixtureRepository, file: string, next: () => number, tag: string): Promise<void> {
    const full = path.join(repo.dir, file);
    const text = await readFile(full, 'utf8').catch(() => '');
    const content = text === '' ? [] : text.replace(/\n$/, '').split('\n');
    const operations = 1 + Math.floor(next() * 3);
    for (let o = 0; o < operations; o++) {
      const at = Math.floor(next() * (content.length + 1));
      const kind = next();
      if (kind < 0.5 || content.length < 5) content.splice(at, 0, ...lines(`${tag}_${o}`, 1 + Math.floor(next() * 6)));
      else if (kind < 0.75) content.splice(at, 1 + Math.floor(next() * 3));
      else content.splice(at, 1, ...lines(`${tag}_r${o}`, 1));
    }
    await writeFile(full, `${content.join('\n')}\n`);
  }

  it('agrees with git blame -w -M on every line of a linear history of edits, renames and whitespace changes', async () => {
    const repo = await repository('linear');
    const next = random(7);
    const files = ['a.ts', 'b.ts', 'lib/c.ts'];
    for (let i = 0; i < 40; i++) {
      const file = files[Math.floor(next() * files.length)]!;
      await mkdir(path.join(repo.dir, 'lib'), { recursive: true });
      await edit(repo, file, next, `l${i}`);
      if (i === 25) {
        await runGit(repo.dir, ['mv', 'b.ts', 'lib/b2.ts']);
        files[1] = 'lib/b2.ts';
      }
      if (i === 30) {
        const full = path.join(repo.dir, 'a.ts');
        await writeFile(full, (await readFile(full, 'utf8')).replace(/^const/gm, '  const'));
      }
      await repo.commit({ message: `change ${i}`, date: T0 + i * 3600 });
    }
    const replayed: number[] = [];
    const ledger = await replayLedger(repo.dir, (await runGit(repo.dir, ['rev-parse', 'HEAD'])).trim(), {
      follows: () => true,
      parents: await parentsOf(repo.dir),
      onReplayed: (count) => replayed.push(count),
    });
    const { same, total } = agreement(ledger, await blameAll(repo.dir));
    expect(total).to.be.greaterThan(100);
    expect(same).to.equal(total);
    // Progress: told once per replayed commit, counting up.
    expect(replayed).to.deep.equal(Array.from({ length: 40 }, (_, i) => i + 1));
  });

  it('agrees with git blame -w -M through pull requests merged with --no-ff, while the main branch moves on', async () => {
    const repo = await repository('merges');
    const next = random(11);
    const files = ['a.ts', 'b.ts', 'c.ts', 'd.ts'];
    let time = T0;
    for (const file of files) {
      await edit(repo, file, next, `init_${file}`);
      await repo.commit({ message: `add ${file}`, date: (time += 3600) });
    }
    for (let pr = 0; pr < 8; pr++) {
      await runGit(repo.dir, ['checkout', '-q', '-b', `pr${pr}`]);
      for (let c = 0; c < 3; c++) {
        await edit(repo, files[(pr + c) % files.length]!, next, `pr${pr}_${c}`);
        await repo.commit({ message: `pr ${pr} change ${c}`, date: (time += 3600) });
      }
      await runGit(repo.dir, ['checkout', '-q', 'main']);
      // The main branch moves on in a file the request does not touch.
      await edit(repo, files[(pr + 3) % files.length]!, next, `main${pr}`);
      await repo.commit({ message: `main change ${pr}`, date: (time += 3600) });
      await runGit(repo.dir, ['merge', '-q', '--no-ff', '-m', `Merge pull request #${pr}`, `pr${pr}`], {
        GIT_AUTHOR_DATE: `@${(time += 3600)} +0000`,
        GIT_COMMITTER_DATE: `@${time} +0000`,
      });
    }
    const ledger = await ledgerOf(repo.dir);
    const { same, total } = agreement(ledger, await blameAll(repo.dir));
    expect(total).to.be.greaterThan(100);
    expect(same / total).to.be.at.least(0.995);
  });

  it('charges a side branch\u2019s deletions at its own commit: 40 lines added in one request, 30 trimmed in the next, both merged --no-ff', async () => {
    const repo = await repository('rework');
    await repo.commit({ message: 'start', date: T0, files: { 'README.md': 'project\n' } });
    await runGit(repo.dir, ['checkout', '-q', '-b', 'one']);
    const added = lines('assistant', 40);
    const writer = await repo.commit({
      message: 'Add the parser',
      date: T0 + DAY,
      files: { 'src/parser.ts': `${added.join('\n')}\n` },
    });
    await runGit(repo.dir, ['checkout', '-q', 'main']);
    await runGit(repo.dir, ['merge', '-q', '--no-ff', '-m', 'Merge pull request #1', 'one']);
    await runGit(repo.dir, ['checkout', '-q', '-b', 'two']);
    const trimmer = await repo.commit({
      message: 'Trim the parser',
      date: T0 + 3 * DAY,
      files: { 'src/parser.ts': `${added.slice(0, 10).join('\n')}\n` },
    });
    await runGit(repo.dir, ['checkout', '-q', 'main']);
    await runGit(repo.dir, ['merge', '-q', '--no-ff', '-m', 'Merge pull request #2', 'two']);
    const deletions: LedgerDeletion[] = [];
    const ledger = await ledgerOf(repo.dir, deletions);
    const hashOf = (index: number | null) => (index === null ? null : ledger.commits[index]);
    expect(deletions.filter((d) => hashOf(d.by) === trimmer && hashOf(d.writer) === writer)).to.have.length(30);
    // The merges delete nothing of anyone's: the trimming commit was charged.
    expect(deletions.filter((d) => hashOf(d.by) !== trimmer)).to.have.length(0);
    expect((ledger.files.get('src/parser.ts') ?? []).map((v) => ledger.commits[writerIndex(v)])).to.deep.equal(
      Array(10).fill(writer),
    );
  });

  it('a block moved within a file or to another file keeps its writer, and its move is no deletion', async () => {
    const repo = await repository('moves');
    const block = lines('block', 12);
    const other = lines('other', 20);
    const writer = await repo.commit({
      message: 'Add the module',
      date: T0,
      files: { 'src/a.ts': `${[...block, ...other].join('\n')}\n` },
    });
    // The block moves to the end of the file, then to a file of its own.
    await repo.commit({
      message: 'Reorder',
      date: T0 + DAY,
      files: { 'src/a.ts': `${[...other, ...block].join('\n')}\n` },
    });
    await repo.commit({
      message: 'Split the module',
      date: T0 + 2 * DAY,
      files: { 'src/a.ts': `${other.join('\n')}\n`, 'src/b.ts': `${block.map((l) => `  ${l}`).join('\n')}\n` },
    });
    const deletions: LedgerDeletion[] = [];
    const ledger = await ledgerOf(repo.dir, deletions);
    const writers = (file: string) => (ledger.files.get(file) ?? []).map((v) => ledger.commits[writerIndex(v)]);
    expect(writers('src/b.ts')).to.deep.equal(Array(12).fill(writer));
    expect(writers('src/a.ts')).to.deep.equal(Array(20).fill(writer));
    expect(deletions).to.have.length(0);
    expect(ledger.movedLines).to.equal(24);
  });

  it('follows a file created empty, a path with blanks and a line holding a lone carriage return, as blame does', async () => {
    const repo = await repository('odd-files');
    await repo.commit({
      message: 'Add empty',
      date: T0,
      files: { 'pkg/__init__.py': '', 'print args with spaces.cmd': 'echo one\n' },
    });
    await repo.commit({
      message: 'Fill them',
      date: T0 + DAY,
      files: {
        'pkg/__init__.py': `${lines('init', 5).join('\n')}\n`,
        'print args with spaces.cmd': 'echo one\necho two\n',
        'drawing.txt': 'first\nsecond part\ralso second\nthird\n',
      },
    });
    await repo.commit({
      message: 'Edit them',
      date: T0 + 2 * DAY,
      files: {
        'pkg/__init__.py': `${lines('init', 3).join('\n')}\nchanged = 1\n`,
        'drawing.txt': 'first\nsecond part\ralso second\nthird, edited\nfourth\n',
      },
    });
    const ledger = await ledgerOf(repo.dir);
    const { same, total } = agreement(ledger, await blameAll(repo.dir));
    expect(total).to.equal(4 + 2 + 4);
    expect(same).to.equal(total);
  });

  it('judges copies within a file as blame -M scores them: through a commit that only deletes, by letters and digits, and piece by piece at HEAD', async () => {
    const repo = await repository('copies');
    const numbered = (prefix: string, count: number) => Array.from({ length: count }, (_, i) => `${prefix}${i + 1}`);
    const code = numbered('const value_from_the_first_module_number', 6);
    const heading = ['Other changes', '~~~~~~~~~~~~~', ''];
    const first = ['opt_a = 11', 'opt_b = 22', 'opt_c = 33', 'opt_d = 44'];
    const second = ['opt_e = 55', 'opt_f = 66', 'opt_g = 77', 'opt_h = 88'];
    const body = numbered('text line', 12);
    const notes = numbered('note ', 8);
    await repo.commit({
      message: 'Write them',
      date: T0,
      files: {
        'doc.txt': `${[...code, ...body, ...first, 'middle', ...second, 'end'].join('\n')}\n`,
        'notes.txt': `${[...notes, ...heading, 'last'].join('\n')}\n`,
      },
    });
    // A commit that only deletes: the file's line texts must survive it.
    const kept = body.slice(0, 11);
    await repo.commit({
      message: 'Drop a line',
      date: T0 + DAY,
      files: { 'doc.txt': `${[...code, ...kept, ...first, 'middle', ...second, 'end'].join('\n')}\n` },
    });
    // Blocks move within their files: the options and the code (enough letters and digits to be
    // followed), the punctuation heading (too few: blame leaves it to the commit that moves it).
    await repo.commit({
      message: 'Reorder',
      date: T0 + 2 * DAY,
      files: {
        'doc.txt': `${['start', ...first, ...kept, 'middle', 'end', ...second, ...code].join('\n')}\n`,
        'notes.txt': `${[...heading, ...notes, 'last'].join('\n')}\n`,
      },
    });
    // A line inserted in the middle of the second options: each half is too little to be a copy on its own.
    await repo.commit({
      message: 'Insert',
      date: T0 + 3 * DAY,
      files: {
        'doc.txt': `${['start', ...first, ...kept, 'middle', 'end', ...second.slice(0, 2), 'inserted', ...second.slice(2), ...code].join('\n')}\n`,
      },
    });
    const ledger = await ledgerOf(repo.dir);
    const { same, total } = agreement(ledger, await blameAll(repo.dir));
    expect(total).to.equal(1 + 4 + 11 + 2 + 5 + 6 + 3 + 8 + 1);
    expect(same).to.equal(total);
  });

  it('lines a copied block up against the whole file in order, as blame -M does: a run the file holds is no copy when the block\u2019s alignment puts its lines elsewhere', async () => {
    const repo = await repository('aligned-copies');
    const start = ['def first():', '    is_flag=True,', '    default=False,', '    return 1', '', 'marker()', ''];
    const rest = [
      'def second():',
      '    is_flag=True,',
      '    return 2',
      '',
      'def third():',
      '    default=False,',
      '    return 3',
    ];
    await repo.commit({ message: 'Options', date: T0, files: { 'options.py': `${[...start, ...rest].join('\n')}\n` } });
    // The block's `marker()` lines up after the first options, so its two option lines line up with
    // the later ones, apart: no run of 20 letters and digits, the block is the new commit's. The
    // pair it also holds together (the first options) is not where the alignment puts them.
    await repo.commit({
      message: 'Another',
      date: T0 + DAY,
      files: {
        'options.py': `${[...start, ...rest, '', 'marker()', '    is_flag=True,', '    default=False,'].join('\n')}\n`,
      },
    });
    const ledger = await ledgerOf(repo.dir);
    const blamed = await blameAll(repo.dir);
    const { same, total } = agreement(ledger, blamed);
    expect(total).to.equal(18);
    expect(same).to.equal(total);
    const newest = (await runGit(repo.dir, ['rev-parse', 'HEAD'])).trim();
    expect(blamed.get('options.py')!.slice(-2)).to.deep.equal([newest, newest]);
  });

  it('lines up again at HEAD what is left of a copying block, as blame -M lines up a block as it stands there', async () => {
    const repo = await repository('copy-pieces');
    // Ten letters and digits a pair: only four of them in a row are a copy (20).
    const [a, b, c, d] = ['a_val(1)', 'b_val(2)', 'c_val(3)', 'd_val(4)'];
    const z = 'zeta_long_marker_text(0)';
    const zero = ['# zero', a, b, c, d, 'end_of_zero()'];
    const one = ['# one', z, a, b];
    const two = ['# two', c, d];
    // Z A B C D lines up with the second commit's Z A B and the third's C D (five lines, where the
    // first commit's A B C D is four): Z A B is a copy, C D too short to be one. Without its Z,
    // what is left (A B C D) stands as one block at HEAD, and blame lines it up with the first
    // commit's A B C D: all four are the first commit's.
    const block = ['# block', z, a, b, c, d];
    const trimmed = ['# block', a, b, c, d];
    await commitVersions(repo, [
      zero,
      [...zero, ...one],
      [...zero, ...one, ...two],
      [...zero, ...one, ...two, ...block],
      [...zero, ...one, ...two, ...trimmed],
    ]);
    const ledger = await ledgerOf(repo.dir);
    const blamed = await blameAll(repo.dir);
    const { same, total } = agreement(ledger, blamed);
    expect(total).to.equal(18);
    expect(same).to.equal(total);
    const first = (await runGit(repo.dir, ['rev-list', '--max-parents=0', 'HEAD'])).trim();
    expect(blamed.get('f.py')!.slice(-4)).to.deep.equal([first, first, first, first]);
  });

  it('judges the lines a copy takes as blame passes them back: together, as a block of the commit that added them', async () => {
    const repo = await repository('copy-of-copy');
    const [a, b] = ['frequent_line_alpha(1)', 'frequent_line_beta(2)'];
    const zero = ['# zero', ...Array.from({ length: 8 }, (_, i) => [a, b, `separator_number_${i}()`]).flat()];
    const before = Array.from({ length: 10 }, (_, i) => `unique_before_line_${i}()`);
    const after = Array.from({ length: 10 }, (_, i) => `unique_after_line_${i}()`);
    // Among twenty new lines, A and B (all over the file) are left out of the alignment: no copy.
    const one = ['# one', ...before, a, b, ...after];
    // Two lines around them come along: a copy of the second commit's four lines. Blame passes the
    // four back to that commit together, and there, on their own, A and B are a copy of the first.
    const two = ['# two', before[9]!, a, b, after[0]!];
    await commitVersions(repo, [zero, [...zero, ...one], [...zero, ...one, ...two]]);
    const blamed = await blameAll(repo.dir);
    const first = (await runGit(repo.dir, ['rev-list', '--max-parents=0', 'HEAD'])).trim();
    expect(blamed.get('f.py')!.slice(-3, -1)).to.deep.equal([first, first]);
    const { same, total } = agreement(await ledgerOf(repo.dir), blamed);
    expect(total).to.equal(53);
    expect(same).to.equal(total);
  });

  it('a new file takes the source blame follows it to, even one git log -M gave to another file of the commit', async () => {
    const repo = await repository('follows');
    const steps = Array.from({ length: 12 }, (_, i) => `fn step_${i}() -> u32 { compute_the_value_of(${i}) }`);
    await mkdir(path.join(repo.dir, 'src'), { recursive: true });
    await writeFile(path.join(repo.dir, 'src', 'one.rs'), `${steps.join('\n')}\n`);
    await repo.commit({ message: 'one', date: T0 });
    // One commit moves one.rs into a folder whole and starts two/mod.rs from most of it: git log
    // -M pairs one.rs with one/mod.rs, and two/mod.rs is new; blame, following two/mod.rs alone,
    // finds it came from one.rs.
    await mkdir(path.join(repo.dir, 'src', 'one'), { recursive: true });
    await mkdir(path.join(repo.dir, 'src', 'two'), { recursive: true });
    await runGit(repo.dir, ['mv', 'src/one.rs', 'src/one/mod.rs']);
    const own = ['fn other_a() -> u32 { 1 }', 'fn other_b() -> u32 { 2 }'];
    await writeFile(path.join(repo.dir, 'src', 'two', 'mod.rs'), `${[...steps.slice(0, 9), ...own].join('\n')}\n`);
    await repo.commit({ message: 'restructure', date: T0 + DAY });
    const first = (await runGit(repo.dir, ['rev-list', '--max-parents=0', 'HEAD'])).trim();
    const blamed = await blameAll(repo.dir);
    expect(blamed.get('src/two/mod.rs')!.slice(0, 9)).to.deep.equal(Array(9).fill(first));
    const ledger = await ledgerOf(repo.dir);
    const { same, total } = agreement(ledger, blamed);
    expect(total).to.equal(23);
    expect(same).to.equal(total);
  });

  it('follows new files whose names read like options or pathspec magic as the files they are', async () => {
    const repo = await repository('follows-hostile-names');
    const steps = Array.from({ length: 12 }, (_, i) => `fn step_${i}() -> u32 { compute_the_value_of(${i}) }`);
    await writeFile(path.join(repo.dir, 'one.rs'), `${steps.join('\n')}\n`);
    await repo.commit({ message: 'one', date: T0 });
    await mkdir(path.join(repo.dir, 'one'), { recursive: true });
    await runGit(repo.dir, ['mv', 'one.rs', 'one/mod.rs']);
    // Each starts from most of one.rs: `git diff-tree` must take them as paths, never as an option
    // or a pattern (`:(glob)*.rs` would match every file).
    for (const name of ['--output=x.rs', ':(glob)*.rs'])
      await writeFile(path.join(repo.dir, name), `${[...steps.slice(0, 9), `fn own() -> u32 { 1 }`].join('\n')}\n`);
    await repo.commit({ message: 'restructure', date: T0 + DAY });
    const blamed = await blameAll(repo.dir);
    const { same, total } = agreement(await ledgerOf(repo.dir), blamed);
    expect(total).to.equal(32);
    expect(same).to.equal(total);
    expect(existsSync(path.join(repo.dir, 'x.rs'))).to.equal(false);
  });

  it('a merge whose file is its second parent\u2019s, blob for blob, takes that side\u2019s writers (as blame does)', async () => {
    const repo = await repository('side-blob');
    await repo.commit({ message: 'start', date: T0, files: { 'deps.lock': `${lines('dep', 6).join('\n')}\n` } });
    await runGit(repo.dir, ['checkout', '-q', '-b', 'side']);
    const bumped = lines('dep', 6);
    bumped[2] = 'const dep_2 = computeTheValueOf(2, "bumped");';
    await repo.commit({
      message: 'Bump on the side',
      date: T0 + DAY,
      files: { 'deps.lock': `${bumped.join('\n')}\n` },
    });
    await runGit(repo.dir, ['checkout', '-q', 'main']);
    await repo.commit({
      message: 'More on the side',
      date: T0 + 2 * DAY,
      files: { 'deps.lock': `${[...bumped, 'const extra = computeTheValueOf(9, "side");'].join('\n')}\n` },
    });
    await runGit(repo.dir, ['checkout', '-q', 'main']);
    // The same bump on main, by another commit: the merge's file is the side's, not main's.
    await repo.commit({
      message: 'Bump on main',
      date: T0 + 3 * DAY,
      files: { 'deps.lock': `${bumped.join('\n')}\n`, 'x.txt': 'x\n' },
    });
    await runGit(repo.dir, ['merge', '-q', '--no-ff', '-m', 'Merge side', 'side']);
    const ledger = await ledgerOf(repo.dir);
    const { same, total } = agreement(ledger, await blameAll(repo.dir));
    expect(same).to.equal(total);
  });
});
