import { expect } from 'chai';
import { readdir, readFile, writeFile, mkdir, rm, symlink } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import path from 'node:path';
import AjvModule, { type ValidateFunction } from 'ajv';
import {
  burstHistory,
  createRepository,
  humanHistory,
  makeTempDir,
  runCadence,
  runGit,
  type FixtureRepository,
  type TempDir,
} from '@cadence-detect/test-support';

const require = createRequire(import.meta.url);
// ajv is CommonJS: its class is the module's default export, or the module itself.
const Ajv = ((AjvModule as unknown as { default?: unknown }).default ?? AjvModule) as new (options: object) => {
  compile(schema: object): ValidateFunction;
  errors?: unknown;
};
const CODE_QUALITY_SCHEMA = JSON.parse(
  await readFile(new URL('./gl-code-quality.schema.json', import.meta.url), 'utf8'),
) as object;

interface PullRequestPayload {
  pull_request: { base: { sha: string; ref: string }; head: { sha: string } };
  [key: string]: unknown;
}

/** GitHub's own documented pull_request payload, pointed at a base and a head of ours. */
function pullRequestEvent(base: string, head: string): PullRequestPayload {
  const events = require('@octokit/webhooks-examples') as { name: string; examples: PullRequestPayload[] }[];
  const example = structuredClone(
    events.find((e) => e.name === 'pull_request')!.examples.find((e) => e.pull_request?.base?.sha)!,
  );
  example.pull_request.base.sha = base;
  example.pull_request.head.sha = head;
  return example;
}

/**
 * `cadence ci github` and `cadence ci gitlab` as the forges run them: a process with the variables
 * they set, over repositories built here. A human history on main; a pull request of machine-like
 * commits on top, which also tries to rewrite the configuration to pass.
 */
describe('cadence ci (GitHub Actions and GitLab CI)', function () {
  this.timeout(120_000);
  let work: TempDir;
  let repo: FixtureRepository;
  let base: string;
  let head: string;

  before(async () => {
    work = await makeTempDir('cadence-ci-');
    const dir = path.join(work.path, 'repo');
    await mkdir(dir);
    repo = await createRepository(dir, humanHistory(12));
    await repo.commit({
      message: 'Add the project configuration',
      date: Date.UTC(2019, 1, 1) / 1000,
      files: { '.cadence.yaml': 'thresholds:\n  suspicious_additions: 500\n' },
    });
    base = repo.hashes.at(-1)!;
    // The pull request: a burst of large commits, and a configuration that would let it pass.
    for (const commit of burstHistory(6, Date.UTC(2025, 5, 2, 14) / 1000)) await repo.commit(commit);
    await repo.commit({
      message: 'Tune the checks',
      date: Date.UTC(2025, 5, 2, 15) / 1000,
      files: {
        '.cadence.yaml':
          'strategies:\n  disabled: [commit-model, velocity, timing, size]\nassessment:\n  suspicious: 1\n  likely_ai_generated: 1\n',
      },
    });
    head = repo.hashes.at(-1)!;
  });
  after(() => work.remove());

  async function github(
    env: Record<string, string>,
    args: string[] = [],
    event: unknown = pullRequestEvent(base, head),
    forge = 'github',
  ) {
    const files = await makeTempDir('cadence-ci-github-');
    const eventFile = path.join(files.path, 'event.json');
    await writeFile(eventFile, JSON.stringify(event));
    const output = path.join(files.path, 'output');
    const summary = path.join(files.path, 'summary.md');
    await writeFile(output, '');
    await writeFile(summary, '');
    const run = await runCadence(['ci', forge, ...args], {
      cwd: repo.dir,
      env: {
        GITHUB_WORKSPACE: repo.dir,
        GITHUB_EVENT_NAME: 'pull_request',
        GITHUB_EVENT_PATH: eventFile,
        GITHUB_OUTPUT: output,
        GITHUB_STEP_SUMMARY: summary,
        ...env,
      },
    });
    const outputs = Object.fromEntries(
      (await readFile(output, 'utf8'))
        .trim()
        .split('\n')
        .filter(Boolean)
        .map((line) => line.split('=') as [string, string]),
    );
    const text = await readFile(summary, 'utf8');
    await files.remove();
    return { run, outputs, summary: text };
  }

  it('analyses the pull request\u2019s commits with the base\u2019s configuration: outputs, summary, SARIF, and exit 3 at fail-on', async () => {
    const { run, outputs, summary } = await github({ INPUT_FAIL_ON: 'suspicious', INPUT_SARIF: 'cadence.sarif' });
    expect(run.code, run.stderr).to.equal(3);
    expect(run.stderr).to.contain('reaches fail-on suspicious');
    expect(outputs.assessment).to.be.oneOf(['suspicious', 'likely_ai_generated']);
    expect(Number(outputs.flagged)).to.be.at.least(1).and.at.most(7);
    expect(Number(outputs['ai-share'])).to.be.greaterThan(0);
    expect(summary)
      .to.match(/^## Cadence: /)
      .and.contain('commits flagged')
      .and.contain(`Commits after \`${base.slice(0, 12)}\``);
    expect(summary).to.contain('| commit | severity | evidence | why |');
    // The lines the request adds, and how many came from assistant-made commits (docs/lines.md).
    expect(summary).to.match(
      /^Adds [\d,]+ lines; an expected [\d.,]+ \(\d+%\) of them from assistant-made commits \(lines weigh each commit by its size, the commit share does not\)\.$/m,
    );
    // The gate's outcome is said: this run reaches fail-on suspicious.
    expect(summary).to.match(
      /^Gate: \*\*failed\*\*: the verdict (suspicious|likely_ai_generated) reaches fail-on suspicious\.$/m,
    );
    const sarif = JSON.parse(await readFile(path.join(repo.dir, 'cadence.sarif'), 'utf8')) as {
      version: string;
      runs: { results: { level: string }[] }[];
    };
    expect(sarif.version).to.equal('2.1.0');
    expect(sarif.runs[0]!.results.length).to.be.at.least(1);
    // The gate tripped: code scanning sees errors.
    expect(new Set(sarif.runs[0]!.results.map((r) => r.level))).to.deep.equal(new Set(['error']));
    // The verdict itself shows the pull request's own .cadence.yaml (every strategy off, bands at 1) changed nothing.
  });

  it('passes the gate when fail-on is never (exit 0), the outputs still written, and the SARIF has no error', async () => {
    const { run, outputs } = await github({ INPUT_FAIL_ON: 'never', INPUT_SARIF: 'never.sarif' });
    expect(run.code, run.stderr).to.equal(0);
    const sarif = JSON.parse(await readFile(path.join(repo.dir, 'never.sarif'), 'utf8')) as {
      runs: { results: { level: string }[] }[];
    };
    expect(sarif.runs[0]!.results.map((r) => r.level)).to.not.include('error');
    expect(outputs.assessment).to.be.oneOf(['suspicious', 'likely_ai_generated']);
  });

  it('reads flags over inputs, and refuses a fail-on it does not know (exit 2)', async () => {
    expect((await github({ INPUT_FAIL_ON: 'suspicious' }, ['--fail-on', 'never'])).run.code).to.equal(0);
    const unknown = await github({ INPUT_FAIL_ON: 'sometimes' });
    expect(unknown.run.code).to.equal(2);
    expect(unknown.run.stderr).to.contain('fail-on must be never, suspicious or likely_ai_generated');
  });

  it('refuses a shallow checkout with a message naming fetch-depth: 0', async () => {
    const shallow = path.join(work.path, 'shallow');
    await runGit(work.path, ['clone', '--quiet', '--depth', '1', `file://${repo.dir}`, shallow]);
    const files = await makeTempDir('cadence-ci-shallow-');
    await writeFile(path.join(files.path, 'event.json'), JSON.stringify(pullRequestEvent(base, head)));
    const run = await runCadence(['ci', 'github'], {
      cwd: shallow,
      env: {
        GITHUB_WORKSPACE: shallow,
        GITHUB_EVENT_NAME: 'pull_request',
        GITHUB_EVENT_PATH: path.join(files.path, 'event.json'),
      },
    });
    await files.remove();
    expect(run.code).to.equal(2);
    expect(run.stderr).to.contain('shallow').and.contain('fetch-depth: 0');
  });

  it('takes --config inside the checkout from the base commit, never the pull request\u2019s version of it', async () => {
    // At the head the file disables every strategy; at the base it sets a threshold.
    const { run, outputs } = await github({ INPUT_CONFIG: '.cadence.yaml', INPUT_FAIL_ON: 'never' });
    expect(run.code, run.stderr).to.equal(0);
    expect(Number(outputs.flagged)).to.be.at.least(1);
  });

  it('with path naming a folder of the repository, --config inside the repository is still read at the base commit; a folder named "..x" is inside', async () => {
    // The request's working tree: its .cadence.yaml (and a "..x/" folder's file) load a plugin that writes a marker.
    const markers = path.join(work.path, 'config-markers');
    await mkdir(markers, { recursive: true });
    const plugin = path.join(repo.dir, 'evil-plugin');
    await mkdir(plugin, { recursive: true });
    await writeFile(
      path.join(plugin, 'package.json'),
      JSON.stringify({ name: 'evil-plugin', version: '1.0.0', type: 'module', main: 'index.js' }),
    );
    await writeFile(
      path.join(plugin, 'index.js'),
      `import { writeFileSync } from 'node:fs';\nwriteFileSync(${JSON.stringify(path.join(markers, 'evil-plugin'))}, 'ran');\nexport default { name: 'evil-plugin', apply() {} };\n`,
    );
    const requestConfig = `plugins: [${JSON.stringify(plugin)}]\nstrategies:\n  disabled: [commit-model, velocity, timing, size]\n`;
    await mkdir(path.join(repo.dir, 'sub'), { recursive: true });
    await mkdir(path.join(repo.dir, '..x'), { recursive: true });
    await writeFile(path.join(repo.dir, '..x', 'cadence.yaml'), requestConfig);
    const committed = await readFile(path.join(repo.dir, '.cadence.yaml'), 'utf8');
    await writeFile(path.join(repo.dir, '.cadence.yaml'), requestConfig);
    try {
      const sub = await github({ INPUT_PATH: 'sub', INPUT_CONFIG: '.cadence.yaml', INPUT_FAIL_ON: 'never' });
      expect(sub.run.code, sub.run.stderr).to.equal(0);
      expect(
        Number(sub.outputs.flagged),
        'the base\u2019s configuration, which leaves the strategies on',
      ).to.be.at.least(1);
      const dotted = await github({ INPUT_PATH: 'sub', INPUT_CONFIG: '..x/cadence.yaml', INPUT_FAIL_ON: 'never' });
      expect(dotted.run.code, dotted.run.stderr).to.equal(2);
      expect(dotted.run.stderr).to.contain('no such file at the base commit');
      expect(await readdir(markers), 'the request\u2019s plugin ran').to.deep.equal([]);
    } finally {
      await writeFile(path.join(repo.dir, '.cadence.yaml'), committed);
      for (const name of ['sub', '..x', 'evil-plugin'])
        await rm(path.join(repo.dir, name), { recursive: true, force: true });
    }
  });

  it('reads --config outside the repository from disk, and never follows a link the request placed inside it', async () => {
    const outside = path.join(work.path, 'chosen.yaml');
    await writeFile(outside, 'thresholds:\n  suspicious_additions: 500\n');
    const chosen = await github({ INPUT_CONFIG: outside, INPUT_FAIL_ON: 'never' });
    expect(chosen.run.code, chosen.run.stderr).to.equal(0);
    // A link the request committed inside the repository, pointing outside it, is not followed: read from git, it names no file.
    await symlink(outside, path.join(repo.dir, 'link.yaml'));
    try {
      const linked = await github({ INPUT_CONFIG: 'link.yaml', INPUT_FAIL_ON: 'never' });
      expect(linked.run.code, linked.run.stderr).to.equal(2);
      expect(linked.run.stderr).to.contain('no such file at the base commit');
    } finally {
      await rm(path.join(repo.dir, 'link.yaml'), { force: true });
    }
  });

  it('cadence ci gitlab: a Code Quality report valid against GitLab\u2019s fields, GIT_DEPTH not cutting the history', async () => {
    const run = await runCadence(['ci', 'gitlab', '--fail-on', 'likely_ai_generated'], {
      cwd: repo.dir,
      env: {
        GITLAB_CI: 'true',
        CI_PROJECT_DIR: repo.dir,
        CI_PIPELINE_SOURCE: 'merge_request_event',
        CI_MERGE_REQUEST_DIFF_BASE_SHA: base,
        CI_COMMIT_SHA: head,
        GIT_DEPTH: '20',
      },
    });
    expect([0, 3], run.stderr).to.include(run.code);
    expect(run.stderr).to.match(
      /^cadence: Adds [\d,]+ lines; an expected [\d.,]+ \(\d+%\) of them from assistant-made commits/m,
    );
    const report = JSON.parse(await readFile(path.join(repo.dir, 'gl-code-quality.json'), 'utf8')) as {
      fingerprint: string;
      severity: string;
      location: { path: string };
    }[];
    const validate = new Ajv({ allErrors: true, strict: false }).compile(CODE_QUALITY_SCHEMA);
    expect(validate(report), JSON.stringify(validate.errors)).to.equal(true);
    expect(report.length).to.be.at.least(1);
    expect(new Set(report.map((r) => r.fingerprint)).size).to.equal(report.length);
    for (const issue of report) expect(issue.location.path).to.match(/^(src\/module\d\.ts|\.cadence\.yaml)$/);
    const again = await runCadence(['ci', 'gitlab', '-o', 'again.json'], {
      cwd: repo.dir,
      env: {
        GITLAB_CI: 'true',
        CI_PROJECT_DIR: repo.dir,
        CI_PIPELINE_SOURCE: 'merge_request_event',
        CI_MERGE_REQUEST_DIFF_BASE_SHA: base,
        CI_COMMIT_SHA: head,
      },
    });
    expect(again.code, again.stderr).to.equal(0);
    const second = JSON.parse(await readFile(path.join(repo.dir, 'again.json'), 'utf8')) as { fingerprint: string }[];
    expect(second.map((r) => r.fingerprint)).to.deep.equal(report.map((r) => r.fingerprint));
  });

  it('never writes a report through a link the request committed: the SARIF, a folder on its way, the Code Quality file (exit 2, the link named, its target untouched)', async () => {
    const victim = path.join(work.path, 'victim.txt');
    await writeFile(victim, 'precious\n');
    const outside = path.join(work.path, 'outside');
    await mkdir(outside, { recursive: true });
    const planted = ['linked.sarif', 'reports', 'linked-quality.json'];
    try {
      await symlink(victim, path.join(repo.dir, 'linked.sarif'));
      const sarif = await github({ INPUT_FAIL_ON: 'never', INPUT_SARIF: 'linked.sarif' });
      expect(sarif.run.code, sarif.run.stderr).to.equal(2);
      expect(sarif.run.stderr).to.contain(`${path.join(repo.dir, 'linked.sarif')} is a symbolic link`);
      await symlink(outside, path.join(repo.dir, 'reports'));
      const folder = await github({ INPUT_FAIL_ON: 'never', INPUT_SARIF: 'reports/cadence.sarif' });
      expect(folder.run.code, folder.run.stderr).to.equal(2);
      expect(folder.run.stderr).to.contain(`${path.join(repo.dir, 'reports')} is a symbolic link`);
      await symlink(victim, path.join(repo.dir, 'linked-quality.json'));
      const quality = await runCadence(['ci', 'gitlab', '-o', 'linked-quality.json'], {
        cwd: repo.dir,
        env: {
          GITLAB_CI: 'true',
          CI_PROJECT_DIR: repo.dir,
          CI_PIPELINE_SOURCE: 'merge_request_event',
          CI_MERGE_REQUEST_DIFF_BASE_SHA: base,
          CI_COMMIT_SHA: head,
        },
      });
      expect(quality.code, quality.stderr).to.equal(2);
      expect(quality.stderr).to.contain(`${path.join(repo.dir, 'linked-quality.json')} is a symbolic link`);
      expect(await readFile(victim, 'utf8')).to.equal('precious\n');
      expect(await readdir(outside)).to.deep.equal([]);
    } finally {
      for (const name of planted) await rm(path.join(repo.dir, name), { force: true });
    }
  });

  it('cadence ci gitlab refuses a shallow checkout naming GIT_DEPTH: 0', async () => {
    const shallow = path.join(work.path, 'shallow-gitlab');
    await runGit(work.path, ['clone', '--quiet', '--depth', '3', `file://${repo.dir}`, shallow]);
    const run = await runCadence(['ci', 'gitlab'], {
      cwd: shallow,
      env: { GITLAB_CI: 'true', CI_PROJECT_DIR: shallow, CI_PIPELINE_SOURCE: 'push' },
    });
    expect(run.code).to.equal(2);
    expect(run.stderr).to.contain('GIT_DEPTH: 0');
  });

  it('outside the CI it names, each command stops and says what it needs; with --base it says it runs outside and reads that range', async () => {
    const bare = { GITHUB_EVENT_PATH: '', GITHUB_WORKSPACE: '', GITLAB_CI: '', CI_PROJECT_DIR: '' };
    const githubRun = await runCadence(['ci', 'github'], { cwd: repo.dir, env: bare });
    expect(githubRun.code).to.equal(2);
    expect(githubRun.stderr).to.contain(
      "GITHUB_EVENT_PATH is not set: outside one, give the range's base with --base <commit>",
    );
    expect(githubRun.stdout).to.equal('');
    await rm(path.join(repo.dir, 'gl-code-quality.json'), { force: true });
    const gitlabRun = await runCadence(['ci', 'gitlab'], { cwd: repo.dir, env: bare });
    expect(gitlabRun.code).to.equal(2);
    expect(gitlabRun.stderr).to.contain(
      "GITLAB_CI is not set: outside one, give the range's base with --base <commit>",
    );
    // Nothing written into the repository.
    expect(
      (await runGit(repo.dir, ['status', '--porcelain', '--untracked-files=all']))
        .split('\n')
        .filter((l) => l.includes('gl-code-quality')),
    ).to.deep.equal([]);
    const based = await runCadence(['ci', 'github', '--base', base, '--fail-on', 'never'], {
      cwd: repo.dir,
      env: bare,
    });
    expect(based.code, based.stderr).to.equal(0);
    expect(based.stderr).to.contain(
      'not in a GitHub Actions job (no GITHUB_EVENT_PATH): analysing from --base to HEAD',
    );
  });

  it('cadence ci gitea in Gitea and Forgejo Actions: their pull_request event (Gitea\u2019s payload), outputs and summary where the runner gives files for them', async () => {
    // Gitea's documented pull_request payload: `action: synchronized`, the request's base and head by full hash.
    const repository = {
      id: 140,
      name: 'app',
      full_name: 'acme/app',
      clone_url: 'https://gitea.example.test/acme/app.git',
    };
    const event = {
      action: 'synchronized',
      number: 3,
      pull_request: {
        id: 1003,
        number: 3,
        state: 'open',
        draft: false,
        head: { label: 'feature', ref: 'feature', sha: head, repo: repository },
        base: { label: 'main', ref: 'main', sha: base, repo: repository },
      },
      repository,
      sender: { id: 1, login: 'ada', username: 'ada' },
    };
    const runners: Record<string, string>[] = [
      { GITEA_ACTIONS: 'true' },
      { FORGEJO_ACTIONS: 'true', GITEA_ACTIONS: 'true' },
    ];
    for (const runner of runners) {
      const { run, outputs, summary } = await github({ ...runner, INPUT_FAIL_ON: 'never' }, [], event, 'gitea');
      expect(run.code, run.stderr).to.equal(0);
      expect(outputs.assessment).to.be.oneOf(['suspicious', 'likely_ai_generated']);
      expect(summary).to.contain(`Commits after \`${base.slice(0, 12)}\``);
    }
    // A runner that sets no GITHUB_OUTPUT or GITHUB_STEP_SUMMARY: the verdict is still on stdout and the gate still holds.
    const files = await makeTempDir('cadence-ci-forgejo-');
    try {
      const eventFile = path.join(files.path, 'event.json');
      await writeFile(eventFile, JSON.stringify(event));
      const bare = await runCadence(['ci', 'gitea', '--fail-on', 'suspicious'], {
        cwd: repo.dir,
        env: {
          FORGEJO_ACTIONS: 'true',
          GITHUB_WORKSPACE: repo.dir,
          GITHUB_EVENT_NAME: 'pull_request',
          GITHUB_EVENT_PATH: eventFile,
        },
      });
      expect(bare.code, bare.stderr).to.equal(3);
      expect(bare.stdout).to.match(/^cadence: (suspicious|likely_ai_generated): \d+ of \d+ commits flagged/m);
    } finally {
      await files.remove();
    }
  });

  /** Pipelines' proxy as a step sees it: a forward proxy taking absolute API URLs; `status` answers every request. */
  async function pipelinesProxy(status: number) {
    const seen: { method: string; url: string; host: string | undefined; body: unknown }[] = [];
    const server: Server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        seen.push({ method: req.method!, url: req.url!, host: req.headers.host, body: body ? JSON.parse(body) : null });
        res
          .writeHead(status, { 'content-type': 'application/json' })
          .end(status < 300 ? '{}' : '{"error":{"message":"no"}}');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return { url, seen, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
  }

  const pipelineEnv = (proxy: string) => ({
    BITBUCKET_BUILD_NUMBER: '42',
    BITBUCKET_CLONE_DIR: repo.dir,
    BITBUCKET_REPO_FULL_NAME: 'acme/app',
    BITBUCKET_PR_ID: '7',
    // Pipelines may abbreviate it: the checkout resolves it.
    BITBUCKET_PR_DESTINATION_COMMIT: base.slice(0, 12),
    BITBUCKET_COMMIT: head,
    CADENCE_BITBUCKET_PROXY: proxy,
  });

  it('cadence ci bitbucket: the Code Insights report and annotations written, then sent through the Pipelines proxy to the source commit; exit 3 at fail-on', async () => {
    const proxy = await pipelinesProxy(200);
    try {
      const run = await runCadence(['ci', 'bitbucket', '--fail-on', 'suspicious', '-o', 'insights.json'], {
        cwd: repo.dir,
        env: pipelineEnv(proxy.url),
      });
      const written = JSON.parse(await readFile(path.join(repo.dir, 'insights.json'), 'utf8')) as {
        report: { result: string; data: { title: string; value: unknown }[] };
        annotations: { external_id: string; path: string; line: number; severity: string; summary: string }[];
      };
      expect(run.code, run.stderr).to.equal(written.report.result === 'FAILED' ? 3 : 0);
      expect(written.annotations.length).to.be.at.least(1);
      for (const a of written.annotations) {
        expect(a.path).to.match(/^(src\/module\d\.ts|\.cadence\.yaml)$/);
        expect(a.summary.length).to.be.at.most(450);
        expect(['LOW', 'MEDIUM', 'HIGH']).to.include(a.severity);
      }
      const reportUrl = `http://api.bitbucket.org/2.0/repositories/acme/app/commit/${head}/reports/cadence`;
      expect(proxy.seen[0]).to.deep.include({ method: 'PUT', url: reportUrl, host: 'api.bitbucket.org' });
      expect(proxy.seen[0]!.body).to.deep.equal(written.report);
      const annotations = proxy.seen.slice(1);
      expect(annotations.every((r) => r.method === 'POST' && r.url === `${reportUrl}/annotations`)).to.equal(true);
      expect(annotations.flatMap((r) => r.body as unknown[])).to.deep.equal(written.annotations);
      expect(run.stderr).to.contain(`Code Insights report sent to acme/app@${head.slice(0, 12)}`);
    } finally {
      await proxy.close();
    }
  });

  it('cadence ci bitbucket: a refused or unreachable report is one line, never the step\u2019s failure; outside a pull request or Pipelines it says what it needs', async () => {
    const proxy = await pipelinesProxy(403);
    try {
      const refused = await runCadence(['ci', 'bitbucket', '--fail-on', 'never', '-o', 'refused.json'], {
        cwd: repo.dir,
        env: pipelineEnv(proxy.url),
      });
      expect(refused.code, refused.stderr).to.equal(0);
      expect(refused.stderr).to.match(
        /Code Insights report not sent: Bitbucket answered 403 to PUT \/2\.0\/repositories\/acme\/app\/commit\/[0-9a-f]{40}\/reports\/cadence/,
      );
    } finally {
      await proxy.close();
    }
    const away = await runCadence(['ci', 'bitbucket', '--fail-on', 'never', '-o', 'away.json'], {
      cwd: repo.dir,
      env: pipelineEnv('http://127.0.0.1:9'),
    });
    expect(away.code, away.stderr).to.equal(0);
    expect(away.stderr).to.contain('Code Insights report not sent: nothing listens at 127.0.0.1:9');
    const branch = await runCadence(['ci', 'bitbucket'], {
      cwd: repo.dir,
      env: { BITBUCKET_BUILD_NUMBER: '43', BITBUCKET_CLONE_DIR: repo.dir, BITBUCKET_COMMIT: head },
    });
    expect(branch.code).to.equal(2);
    expect(branch.stderr).to.contain('BITBUCKET_PR_DESTINATION_COMMIT is not set: run the step under pull-requests:');
    const outside = await runCadence(['ci', 'bitbucket'], { cwd: repo.dir, env: {} });
    expect(outside.code).to.equal(2);
    expect(outside.stderr).to.contain(
      "BITBUCKET_BUILD_NUMBER is not set: outside one, give the range's base with --base",
    );
    const shallow = path.join(work.path, 'shallow-bitbucket');
    await runGit(work.path, ['clone', '--quiet', '--depth', '3', `file://${repo.dir}`, shallow]);
    const cut = await runCadence(['ci', 'bitbucket'], {
      cwd: shallow,
      env: { ...pipelineEnv('http://127.0.0.1:9'), BITBUCKET_CLONE_DIR: shallow },
    });
    expect(cut.code).to.equal(2);
    expect(cut.stderr).to.contain('clone: depth: full');
  });
});
