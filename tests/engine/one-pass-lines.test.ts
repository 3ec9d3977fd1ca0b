import { expect } from 'chai';
import { mkdir, readdir, readFile, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { RepositoryResult } from '@cadence-detect/plugin-sdk';
import {
  createRepository,
  humanHistory,
  makeTempDir,
  runCadence,
  runGit,
  type TempDir,
} from '@cadence-detect/test-support';

const DAY = 86_400;
const T0 = Date.UTC(2025, 5, 2, 9) / 1000;
const AGENT = { name: 'copilot-swe-agent[bot]', email: '198982749+Copilot@users.noreply.github.com' };
const PERSON = { name: 'Grace Example', email: 'grace@example.test' };
const code = (prefix: string, count: number): string =>
  `${Array.from({ length: count }, (_, i) => `export const ${prefix}${i} = compute(${i}, "${prefix}");`).join('\n')}\n`;

/** The CLI's JSON result for a local repository. */
async function analyze(dir: string, out: string): Promise<RepositoryResult> {
  const run = await runCadence(['analyze', dir, '-o', out], { cwd: path.dirname(dir) });
  expect(run.code, run.stderr).to.equal(0);
  return JSON.parse(await readFile(out, 'utf8')) as RepositoryResult;
}

describe('engine: lines from one pass over the history (the real CLI)', function () {
  this.timeout(120_000);
  let work: TempDir;
  before(async () => {
    work = await makeTempDir('cadence-one-pass-');
  });
  after(() => work.remove());

  it('rework in a merge-based history: an assistant\u2019s 40 lines trimmed by 30 in the next request, both merged --no-ff', async () => {
    const dir = path.join(work.path, 'merges');
    await mkdir(dir);
    const repo = await createRepository(dir, humanHistory(6));
    const merge = (branch: string, title: string, date: number) =>
      runGit(dir, ['merge', '-q', '--no-ff', '-m', title, branch], {
        GIT_AUTHOR_DATE: `@${date} +0000`,
        GIT_COMMITTER_DATE: `@${date} +0000`,
      });
    await runGit(dir, ['checkout', '-q', '-b', 'one']);
    await repo.commit({
      message: 'Add the parser',
      date: T0,
      author: AGENT,
      files: { 'src/parser.ts': code('p', 40) },
    });
    await runGit(dir, ['checkout', '-q', 'main']);
    await merge('one', 'Merge pull request #1 from acme/one', T0 + 3600);
    await runGit(dir, ['checkout', '-q', '-b', 'two']);
    await repo.commit({
      message: 'Trim the parser',
      date: T0 + 2 * DAY,
      author: PERSON,
      files: { 'src/parser.ts': code('p', 10) },
    });
    await runGit(dir, ['checkout', '-q', 'main']);
    await merge('two', 'Merge pull request #2 from acme/two', T0 + 2 * DAY + 3600);
    const result = await analyze(dir, path.join(work.path, 'merges.json'));
    // The agent's commit is explicit (1 each); the human history's commits add a few hundredths.
    expect(result.survival!.assistant.added).to.be.closeTo(40, 0.5);
    expect(result.survival!.assistant.reworked_14d).to.be.closeTo(30, 0.5);
    expect(result.survival!.assistant.surviving).to.be.closeTo(10, 0.5);
    expect(result.lines!.explicit).to.equal(10);
  });

  it('an empty agent commit ("Initial plan") is counted apart: never scored, flagged or listed', async () => {
    const dir = path.join(work.path, 'empty');
    await mkdir(dir);
    const repo = await createRepository(dir, humanHistory(6));
    const plan = await repo.commit({ message: 'Initial plan', date: T0, author: AGENT });
    const work1 = await repo.commit({
      message: 'Add the exporter',
      date: T0 + 600,
      author: AGENT,
      files: { 'src/exporter.ts': code('e', 30) },
    });
    const result = await analyze(dir, path.join(work.path, 'empty.json'));
    expect(result.empty_commits?.commits).to.equal(1);
    expect(Object.values(result.empty_commits!.assistants)).to.deep.equal([1]);
    expect(result.attributed_commits).to.equal(1);
    expect(result.detections.some((d) => d.commit === plan)).to.equal(false);
    expect(result.suspicions.map((s) => s.commit)).to.not.include(plan);
    expect(result.suspicions.map((s) => s.commit)).to.include(work1);
  });

  it('a symbolic link counts no line', async () => {
    const dir = path.join(work.path, 'links');
    await mkdir(dir);
    const repo = await createRepository(dir, [{ message: 'Add a', date: T0, files: { 'a.txt': code('a', 10) } }]);
    await symlink('a.txt', path.join(dir, 'alias.txt'));
    await repo.commit({ message: 'Link a', date: T0 + DAY });
    const result = await analyze(dir, path.join(work.path, 'links.json'));
    expect(result.lines!.counted).to.equal(10);
  });
});

describe('the CLI keeps a local repository\u2019s line pass between runs (XDG_CACHE_HOME), never inside it', function () {
  this.timeout(120_000);
  let work: TempDir;
  before(async () => {
    work = await makeTempDir('cadence-kept-lines-');
  });
  after(() => work.remove());

  it('replays only what is new, --no-cache reads and keeps nothing, a damaged cache is an empty one', async () => {
    const dir = path.join(work.path, 'repo');
    await mkdir(dir);
    const repo = await createRepository(dir, humanHistory(8));
    const cache = path.join(work.path, 'cache');
    const run = async (extra: string[] = []): Promise<RepositoryResult> => {
      const out = path.join(work.path, 'out.json');
      const done = await runCadence(['analyze', dir, '-o', out, ...extra], {
        cwd: work.path,
        env: { XDG_CACHE_HOME: cache },
      });
      expect(done.code, done.stderr).to.equal(0);
      return JSON.parse(await readFile(out, 'utf8')) as RepositoryResult;
    };
    const first = await run();
    const kept = path.join(cache, 'cadence', 'lines');
    const files = await readdir(kept);
    expect(files).to.have.length(1);
    expect(await runGit(dir, ['status', '--porcelain'])).to.equal('');
    // What the next run finds is what it uses: a kept rework figure shows in its result.
    const file = path.join(kept, files[0]!);
    const stored = JSON.parse(await readFile(file, 'utf8')) as { rework: { lines: Record<string, number> } };
    stored.rework.lines[repo.hashes[0]!] = 1000;
    await writeFile(file, JSON.stringify(stored));
    const second = await run();
    expect(second.survival!.human.reworked_14d).to.be.greaterThan(first.survival!.human.reworked_14d + 900);
    // --no-cache: the pass is replayed whole, and the kept file is left as it was.
    const uncached = await run(['--no-cache']);
    expect(uncached.survival).to.deep.equal(first.survival);
    expect(uncached.lines).to.deep.equal(first.lines);
    // A new commit: replayed on top of what was kept (the tampered figure carries forward).
    await repo.commit({ message: 'One more', date: T0 + 5 * DAY, files: { 'src/more.ts': code('m', 5) } });
    const third = await run();
    expect(third.lines!.counted).to.equal(first.lines!.counted + 5);
    expect(third.survival!.human.reworked_14d).to.be.greaterThan(900);
    // A damaged cache file is an empty cache: the same figures as a run without it.
    await writeFile(file, '{"format": 1, "files": {');
    const repaired = await run();
    expect(repaired.lines).to.deep.equal((await run(['--no-cache'])).lines);
    expect(repaired.survival).to.deep.equal((await run(['--no-cache'])).survival);
  });
});
