import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { chmod, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import {
  CADENCE_BIN,
  createRepository,
  humanHistory,
  makeTempDir,
  runCadence,
  runGit,
  type FixtureRepository,
  type TempDir,
} from '@cadence-detect/test-support';

/** `cadence ci gitlab` as a merge request pipeline runs it in `dir`, for base..head. */
function ciGitlab(dir: string, base: string, head: string, args: readonly string[]) {
  return runCadence(['ci', 'gitlab', ...args], {
    cwd: dir,
    env: {
      GITLAB_CI: 'true',
      CI_PROJECT_DIR: dir,
      CI_PIPELINE_SOURCE: 'merge_request_event',
      CI_MERGE_REQUEST_DIFF_BASE_SHA: base,
      CI_COMMIT_SHA: head,
    },
  });
}

/**
 * A pull request's files never become git's settings: the request replaces `sub/` with a bare
 * repository made of ordinary files (HEAD, refs, alternates pointing at the checkout's objects,
 * `info/attributes` giving every path a diff driver, and a `config` whose driver's textconv is a
 * command). Run in `sub`, git would take `sub` for the repository and its `config` for settings.
 */
describe('a request\u2019s files never become git\u2019s settings (a bare repository committed as files)', function () {
  this.timeout(120_000);
  let work: TempDir;
  let repo: FixtureRepository;
  let markers: string;
  let base: string;
  let head: string;

  before(async () => {
    work = await makeTempDir('cadence-request-git-');
    markers = path.join(work.path, 'markers');
    await mkdir(markers);
    const dir = path.join(work.path, 'repo');
    await mkdir(dir);
    repo = await createRepository(dir, humanHistory(10));
    base = repo.hashes.at(-1)!;
    const marker = path.join(markers, 'textconv');
    await repo.commit({
      message: 'Add the sub-project',
      date: Date.UTC(2025, 5, 2, 14) / 1000,
      files: {
        'sub/HEAD': 'ref: refs/heads/main\n',
        'sub/refs/heads/main': `${base}\n`,
        'sub/objects/info/alternates': '../../.git/objects\n',
        'sub/info/attributes': '* diff=evil\n',
        'sub/config': `[core]\n\trepositoryformatversion = 0\n\tbare = true\n[diff "evil"]\n\ttextconv = "echo ran >> ${marker}; cat"\n`,
        'src/feature.ts': Array.from({ length: 60 }, (_, i) => `export const value${i} = ${i};`).join('\n') + '\n',
      },
    });
    head = repo.hashes.at(-1)!;
  });
  after(() => work.remove());

  /** What the planted command left behind: nothing, when git never read the request's config. */
  const ran = async (): Promise<string[]> => readdir(markers);

  async function ciGithub(inputPath: string) {
    const files = await makeTempDir('cadence-request-git-event-');
    try {
      const eventFile = path.join(files.path, 'event.json');
      await writeFile(
        eventFile,
        JSON.stringify({ pull_request: { number: 1, base: { sha: base, ref: 'main' }, head: { sha: head } } }),
      );
      const summaryFile = path.join(files.path, 'summary.md');
      const run = await runCadence(['ci', 'github'], {
        cwd: repo.dir,
        env: {
          GITHUB_WORKSPACE: repo.dir,
          GITHUB_EVENT_NAME: 'pull_request',
          GITHUB_EVENT_PATH: eventFile,
          GITHUB_STEP_SUMMARY: summaryFile,
          INPUT_PATH: inputPath,
          INPUT_FAIL_ON: 'never',
        },
      });
      return { ...run, summary: await readFile(summaryFile, 'utf8').catch(() => '') };
    } finally {
      await files.remove();
    }
  }

  it('the checked-out sub-folder is what git would take for a repository (the attack is real)', async () => {
    // Plain git, left to discover the repository from `sub`, takes the planted one.
    const found = await runGit(path.join(repo.dir, 'sub'), ['rev-parse', '--is-bare-repository']);
    expect(found.trim()).to.equal('true');
  });

  it('cadence ci github with INPUT_PATH=sub: refused in one line, the textconv never runs', async () => {
    const run = await ciGithub('sub');
    expect(run.code, run.stderr).to.equal(1);
    expect(run.stderr.trim().split('\n')).to.have.length(1);
    expect(run.stderr).to.match(/not in a git repository\u2019s working tree|bare repository is refused/);
    expect(await ran()).to.deep.equal([]);
  });

  it('cadence ci gitlab --path sub: the same', async () => {
    const run = await ciGitlab(repo.dir, base, head, ['--path', 'sub', '--fail-on', 'never']);
    expect(run.code, run.stderr).to.equal(1);
    expect(run.stderr).to.contain('bare repository is refused');
    expect(await ran()).to.deep.equal([]);
  });

  it('the checkout itself (path `.`, or a folder inside it) is analysed with line passes, the textconv never runs', async () => {
    for (const inputPath of ['.', 'src']) {
      const run = await ciGithub(inputPath);
      expect(run.code, run.stderr).to.equal(0);
      expect(run.summary).to.match(/Adds \d+ lines/);
    }
    const analyzed = await runCadence(['analyze', '.', '--json'], { cwd: repo.dir });
    expect(analyzed.code, analyzed.stderr).to.equal(0);
    expect(await ran()).to.deep.equal([]);
  });

  it('a separate repository checked out into a sub-folder (actions/checkout path:) stays supported', async () => {
    const nested = path.join(repo.dir, 'nested-checkout');
    await mkdir(nested);
    const other = await createRepository(nested, humanHistory(4));
    try {
      const files = await makeTempDir('cadence-request-git-nested-');
      const eventFile = path.join(files.path, 'event.json');
      await writeFile(
        eventFile,
        JSON.stringify({
          pull_request: { number: 2, base: { sha: other.hashes[1], ref: 'main' }, head: { sha: other.hashes.at(-1) } },
        }),
      );
      const run = await runCadence(['ci', 'github'], {
        cwd: repo.dir,
        env: {
          GITHUB_WORKSPACE: repo.dir,
          GITHUB_EVENT_NAME: 'pull_request',
          GITHUB_EVENT_PATH: eventFile,
          GITHUB_STEP_SUMMARY: path.join(files.path, 'summary.md'),
          INPUT_PATH: 'nested-checkout',
          INPUT_FAIL_ON: 'never',
        },
      });
      const summary = await readFile(path.join(files.path, 'summary.md'), 'utf8').catch(() => '');
      await files.remove();
      expect(run.code, run.stderr).to.equal(0);
      expect(summary).to.match(/Adds \d+ lines/);
    } finally {
      await rm(nested, { recursive: true, force: true });
    }
  });
});

/**
 * The request's `.mailmap` never renames who wrote its commits: in a range the mailmap is the
 * base's, and who made a commit (an agent's account) is decided on the identity the commit itself
 * names. One line mapping the Copilot agent's account to a person once opened the gate.
 */
describe('a request\u2019s .mailmap never renames who wrote its commits', function () {
  this.timeout(120_000);
  let work: TempDir;
  let repo: FixtureRepository;
  let base: string;
  let head: string;
  const agent = { name: 'copilot-swe-agent[bot]', email: '198982749+Copilot@users.noreply.github.com' };

  before(async () => {
    work = await makeTempDir('cadence-request-mailmap-');
    const dir = path.join(work.path, 'repo');
    await mkdir(dir);
    repo = await createRepository(dir, humanHistory(10));
    base = repo.hashes.at(-1)!;
    const start = Date.UTC(2025, 5, 2, 14) / 1000;
    for (let i = 0; i < 3; i++)
      await repo.commit({
        message: `Add the report module part ${i + 1}`,
        date: start + i * 600,
        author: agent,
        committer: agent,
        files: {
          [`src/report-${i}.ts`]:
            Array.from({ length: 40 }, (_, n) => `export const field${i}_${n} = ${n};`).join('\n') + '\n',
        },
      });
    await repo.commit({
      message: 'Tidy the authors',
      date: start + 3 * 600,
      files: { '.mailmap': `Ada Example <ada@example.test> ${agent.name} <${agent.email}>\n` },
    });
    head = repo.hashes.at(-1)!;
  });
  after(() => work.remove());

  it('the gate stays shut (exit 3) with the request\u2019s .mailmap mapping the agent to a person', async () => {
    const run = await ciGitlab(repo.dir, base, head, ['--fail-on', 'likely_ai_generated']);
    expect(run.code, run.stderr).to.equal(3);
    expect(run.stderr).to.contain('reaches fail-on likely_ai_generated');
  });

  it('a whole-history analysis applies the head\u2019s .mailmap to people, and still finds the agent\u2019s commits', async () => {
    const out = path.join(work.path, 'whole.json');
    const run = await runCadence(['analyze', repo.dir, '-o', out], { cwd: work.path });
    expect(run.code, run.stderr).to.equal(0);
    const text = await readFile(out, 'utf8');
    expect(text).to.contain('copilot-agent-account');
  });
});

/**
 * `npx` and `npm exec` put the working folder's `node_modules/.bin` first on PATH: inside a hostile
 * clone, a bare `git` or `prlimit` would be the clone's. Cadence resolves both once, outside any
 * `node_modules/.bin`, and starts them by absolute path.
 */
describe('under npm exec, a clone\u2019s node_modules/.bin/git and prlimit never run', function () {
  this.timeout(120_000);
  let work: TempDir;
  let clone: string;
  let markers: string;

  before(async () => {
    work = await makeTempDir('cadence-npm-exec-');
    markers = path.join(work.path, 'markers');
    await mkdir(markers);
    clone = path.join(work.path, 'clone');
    await mkdir(clone);
    await createRepository(clone, humanHistory(6));
    const bin = path.join(clone, 'node_modules', '.bin');
    await mkdir(bin, { recursive: true });
    for (const name of ['git', 'prlimit']) {
      const file = path.join(bin, name);
      await writeFile(file, `#!/bin/sh\necho ran >> ${JSON.stringify(path.join(markers, name))}\nexit 1\n`);
      await chmod(file, 0o755);
    }
    await writeFile(path.join(clone, 'package.json'), JSON.stringify({ name: 'clone', version: '1.0.0' }));
  });
  after(() => work.remove());

  /** `npm exec --call <command>` in the clone: the PATH npx gives the programs it starts. */
  function npmExec(command: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
    return new Promise((resolve, reject) => {
      const child = spawn('npm', ['exec', '--call', command], {
        cwd: clone,
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { ...process.env, npm_config_update_notifier: 'false' },
      });
      let stdout = '';
      let stderr = '';
      child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
      child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
      child.on('error', reject);
      child.on('close', (code) => resolve({ code, stdout, stderr }));
    });
  }

  it('npm exec runs the clone\u2019s git for a bare `git` (the attack is real)', async () => {
    await npmExec('git --version');
    expect(await readdir(markers)).to.deep.equal(['git']);
    await rm(path.join(markers, 'git'));
  });

  it('cadence analyze . under npm exec: a verdict, and neither planted program ran', async () => {
    const run = await npmExec(`${JSON.stringify(process.execPath)} ${JSON.stringify(CADENCE_BIN)} analyze . --json`);
    expect(run.code, run.stderr).to.equal(0);
    expect((JSON.parse(run.stdout) as { assessment: string }).assessment).to.be.a('string');
    expect(await readdir(markers)).to.deep.equal([]);
  });
});

/**
 * A request's own line records (an `.agent-trace` file it commits) are reported, never used to
 * lower a figure below what inference gives: marking its own commits `human` once turned the
 * summary into "about 0 (0%) from assistant-made commits" while they were flagged.
 */
describe('a request\u2019s own trace file never lowers its lines figure', function () {
  this.timeout(120_000);
  let work: TempDir;

  after(() => work?.remove());

  it('the summary still counts the agent\u2019s lines when the request marks its own commits human', async () => {
    work = await makeTempDir('cadence-request-trace-');
    const dir = path.join(work.path, 'repo');
    await mkdir(dir);
    const repo = await createRepository(dir, humanHistory(10));
    const base = repo.hashes.at(-1)!;
    const agent = { name: 'copilot-swe-agent[bot]', email: '198982749+Copilot@users.noreply.github.com' };
    const start = Date.UTC(2025, 5, 2, 14) / 1000;
    const records: string[] = [];
    for (let i = 0; i < 2; i++) {
      const file = `src/part-${i}.ts`;
      const hash = await repo.commit({
        message: `Add part ${i + 1}`,
        date: start + i * 600,
        author: agent,
        committer: agent,
        files: { [file]: Array.from({ length: 30 }, (_, n) => `export const p${i}_${n} = ${n};`).join('\n') + '\n' },
      });
      records.push(
        JSON.stringify({
          version: '0.1.0',
          id: `r${i}`,
          timestamp: '2025-06-02T14:00:00Z',
          vcs: { type: 'git', revision: hash },
          tool: { name: 'copilot', version: '1' },
          files: [
            {
              path: file,
              conversations: [{ contributor: { type: 'human' }, ranges: [{ start_line: 1, end_line: 30 }] }],
            },
          ],
        }),
      );
    }
    const head = await repo.commit({
      message: 'Record the sessions',
      date: start + 1800,
      files: { '.agent-trace/session.jsonl': records.join('\n') + '\n' },
    });
    const run = await ciGitlab(repo.dir, base, head, ['--fail-on', 'never']);
    expect(run.code, run.stderr).to.equal(0);
    const summary = /an expected ([\d.,]+) \((\d+)%\) of them from assistant-made commits/.exec(run.stderr);
    expect(summary, run.stderr).to.not.equal(null);
    expect(Number(summary![1])).to.equal(60);
  });
});
