import { expect } from 'chai';
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import {
  createRepository,
  humanHistory,
  makeTempDir,
  runCadence,
  runGit,
  type FixtureRepository,
  type TempDir,
} from '@cadence-detect/test-support';

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
    const run = await runCadence(['ci', 'gitlab', '--path', 'sub', '--fail-on', 'never'], {
      cwd: repo.dir,
      env: {
        GITLAB_CI: 'true',
        CI_PROJECT_DIR: repo.dir,
        CI_PIPELINE_SOURCE: 'merge_request_event',
        CI_MERGE_REQUEST_DIFF_BASE_SHA: base,
        CI_COMMIT_SHA: head,
      },
    });
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
    const run = await runCadence(['ci', 'gitlab', '--fail-on', 'likely_ai_generated'], {
      cwd: repo.dir,
      env: {
        GITLAB_CI: 'true',
        CI_PROJECT_DIR: repo.dir,
        CI_PIPELINE_SOURCE: 'merge_request_event',
        CI_MERGE_REQUEST_DIFF_BASE_SHA: base,
        CI_COMMIT_SHA: head,
      },
    });
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
