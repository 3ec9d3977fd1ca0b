import { expect } from 'chai';
import { generateKeyPairSync } from 'node:crypto';
import { createRequire } from 'node:module';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { sign } from '@octokit/webhooks-methods';
import {
  makeTempDir,
  waitForReports,
  runCadence,
  startCadenceServer,
  startFakeGithub,
  waitForJob,
  type FakeForge,
  type ServerProcess,
  type TempDir,
} from '@cadence-detect/test-support';
import { githubPushPayload, SECRET, serveRepositories, type GitFixtures } from './fixtures.js';

interface Outcome {
  reporter: string;
  forge: string;
  kind: string;
  target: string;
  state: string;
  ok: boolean;
  error_code: string | null;
}
interface JobBody {
  id: string;
  status: string;
  reports: Outcome[];
  result?: { assessment: string; reports: Outcome[] };
}

const TOKEN = 'ghp_test0token0never0logged0123456789';
const STATUS_PATH = /^\/repos\/acme\/human\/statuses\/[0-9a-f]{40}$/;
let delivery = 0;

/** The job once its record holds `count` reporter outcomes. */
const reportsOf = (server: ServerProcess, id: string, count: number): Promise<JobBody> =>
  waitForReports<JobBody>(server, id, count);

describe('server: verdicts reported on GitHub (commit statuses and check runs)', function () {
  this.timeout(90_000);
  let work: TempDir;
  let git: GitFixtures;
  let github: FakeForge;
  let server: ServerProcess;

  before(async () => {
    work = await makeTempDir('cadence-forge-github-');
    git = await serveRepositories(work.path);
    github = await startFakeGithub();
    server = await startCadenceServer({
      cwd: work.path,
      config: {
        security: { allowed_networks: ['127.0.0.0/8'] },
        forges: { github: { api_url: github.apiUrl } },
        server: { public_url: 'https://cadence.example.test/' },
      },
      env: { CADENCE_GITHUB_TOKEN: TOKEN },
    });
  });
  after(async () => {
    await server?.stop();
    await github?.close();
    await git?.close();
    await work?.remove();
  });

  async function push(payload: Record<string, unknown>, target: ServerProcess = server): Promise<string> {
    const body = JSON.stringify(payload);
    const { status, body: accepted } = await target.json<{ id: string }>('/webhooks/github', {
      method: 'POST',
      headers: {
        'x-github-event': 'push',
        'x-github-delivery': `forge-${++delivery}`,
        'x-hub-signature-256': await sign(SECRET, body),
        'content-type': 'application/json',
      },
      body,
    });
    expect(status, JSON.stringify(accepted)).to.equal(202);
    return accepted.id;
  }

  it('sets a pending status on the pushed head when the job starts, then the verdict, linked to the job', async () => {
    const after = git.hashes[9]!;
    const seen = github.requests.length;
    const id = await push(githubPushPayload(git.daemon.url('acme/human.git'), git.hashes[5]!, after));
    const job = await waitForJob<JobBody>(server, id);
    expect(job.status, JSON.stringify(job)).to.equal('completed');
    const withReports = await reportsOf(server, id, 2);
    const statuses = github.requests.slice(seen).filter((r) => r.method === 'POST' && STATUS_PATH.test(r.path));
    expect(statuses.map((r) => r.body?.state)).to.deep.equal(['pending', 'success']);
    for (const request of statuses) {
      expect(request.path).to.equal(`/repos/acme/human/statuses/${after}`);
      expect(request.body).to.include({ context: 'cadence', target_url: `https://cadence.example.test/jobs/${id}` });
      expect(String(request.headers.authorization)).to.equal(`token ${TOKEN}`);
      expect(String(request.body?.description).length).to.be.at.most(140);
    }
    expect(String(statuses[1]!.body?.description)).to.match(
      new RegExp(`^${job.result!.assessment}: score \\d\\.\\d\\d, \\d+% assistant share, \\d+ of \\d+ commits flagged`),
    );
    expect(withReports.reports.map((r) => [r.kind, r.state, r.ok])).to.deep.equal([
      ['commit-status', 'pending', true],
      ['commit-status', 'success', true],
    ]);
    expect(withReports.reports[0]).to.include({
      reporter: 'report-github',
      forge: 'github',
      target: `acme/human@${after}`,
      error_code: null,
    });
    expect(withReports.result!.reports).to.deep.equal(withReports.reports);
  });

  it('retries a 500 and succeeds; records a 403 at once without failing the job', async () => {
    github.script('POST', STATUS_PATH, [{ status: 500, body: { message: 'Server Error' } }]);
    const first = await push(githubPushPayload(git.daemon.url('acme/human.git'), git.hashes[6]!, git.hashes[9]!));
    const retried = await reportsOf(server, first, 2);
    expect(
      retried.reports.every((r) => r.ok),
      JSON.stringify(retried.reports),
    ).to.equal(true);

    const seen = github.requests.length;
    github.script('POST', STATUS_PATH, [
      {
        status: 403,
        body: { message: 'Resource not accessible by integration', documentation_url: 'https://docs.github.com/rest' },
      },
      { status: 403, body: { message: 'Resource not accessible by integration' } },
    ]);
    const second = await push(githubPushPayload(git.daemon.url('acme/human.git'), git.hashes[7]!, git.hashes[9]!));
    const refused = await reportsOf(server, second, 2);
    expect(refused.status).to.equal('completed');
    expect(refused.reports.map((r) => [r.state, r.ok, r.error_code])).to.deep.equal([
      ['pending', false, 'ERR_FORGE_AUTH'],
      ['success', false, 'ERR_FORGE_AUTH'],
    ]);
    // A 403 that is not a rate limit is not retried.
    expect(github.requests.slice(seen).filter((r) => STATUS_PATH.test(r.path))).to.have.length(2);
  });

  it('waits out a secondary rate limit that ends within the job, and records one that does not', async () => {
    github.script('POST', STATUS_PATH, [
      {
        status: 403,
        headers: { 'retry-after': '1' },
        body: { message: 'You have exceeded a secondary rate limit. Please wait a few minutes before you try again.' },
      },
    ]);
    const waited = await push(githubPushPayload(git.daemon.url('acme/human.git'), git.hashes[6]!, git.hashes[9]!));
    const ok = await reportsOf(server, waited, 2);
    expect(
      ok.reports.every((r) => r.ok),
      JSON.stringify(ok.reports),
    ).to.equal(true);

    // Past the job's 300 s: recorded, not waited for.
    github.script('POST', STATUS_PATH, [
      {
        status: 403,
        headers: { 'retry-after': '3600' },
        body: { message: 'You have exceeded a secondary rate limit.' },
      },
      {
        status: 429,
        headers: { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(Math.floor(Date.now() / 1000) + 7200) },
        body: { message: 'API rate limit exceeded' },
      },
    ]);
    const limited = await push(githubPushPayload(git.daemon.url('acme/human.git'), git.hashes[7]!, git.hashes[9]!));
    const job = await reportsOf(server, limited, 2);
    expect(job.status).to.equal('completed');
    expect(job.reports.map((r) => r.error_code)).to.deep.equal(['ERR_FORGE_RATE_LIMIT', 'ERR_FORGE_RATE_LIMIT']);
  });

  it('turns the pending status into an error when the job fails', async () => {
    const id = await push(githubPushPayload(git.daemon.url('acme/missing.git'), git.hashes[6]!, git.hashes[9]!));
    const job = await reportsOf(server, id, 2);
    expect(job.status).to.equal('failed');
    expect(job.reports.map((r) => [r.state, r.ok])).to.deep.equal([
      ['pending', true],
      ['error', true],
    ]);
    const last = github.requests.filter((r) => STATUS_PATH.test(r.path)).at(-1)!;
    expect(last.body).to.include({ state: 'error' });
    expect(String(last.body?.description)).to.match(/^Cadence could not analyze this push: ERR_/);
  });

  it('analyzes a pull_request over exactly its commits, fetched as refs/pull/N/head, and reports on its head', async () => {
    // Two commits off hashes[6] that no branch holds: only the request's ref reaches them (a fork's, say).
    const repo = git.human;
    await repo.git(['checkout', '-q', '-b', 'feature-12', git.hashes[6]!]);
    await repo.commit({ message: 'Add the parser', date: 1_700_000_000, addLines: 12 });
    const head = await repo.commit({
      message: 'Test the parser',
      date: 1_700_000_600,
      addLines: 8,
      file: 'test/parser.txt',
    });
    await repo.git(['push', '-q', path.join(git.served, 'acme/human.git'), 'feature-12:refs/pull/12/head']);
    await repo.git(['checkout', '-q', 'main']);
    await repo.git(['branch', '-q', '-D', 'feature-12']);

    const require = createRequire(import.meta.url);
    interface PullRequestExample {
      action?: string;
      number: number;
      pull_request: { draft: boolean; head: { sha: string }; base: { repo: object } };
      repository: { full_name: string };
    }
    const events = require('@octokit/webhooks-examples') as { name: string; examples: PullRequestExample[] }[];
    const opened = structuredClone(
      events
        .find((e) => e.name === 'pull_request')!
        .examples.find((e) => e.action === 'opened' && !e.pull_request.draft)!,
    );
    opened.number = 12;
    Object.assign(opened.pull_request, { number: 12, state: 'open', draft: false });
    opened.pull_request.head.sha = head;
    Object.assign(opened.pull_request.base, { ref: 'main', sha: git.hashes[9]! });
    Object.assign(opened.pull_request.base.repo, {
      full_name: 'acme/human',
      clone_url: git.daemon.url('acme/human.git'),
    });
    opened.repository.full_name = 'acme/human';
    const body = JSON.stringify(opened);
    const answer = await server.json<{ id: string; message: string }>('/webhooks/github', {
      method: 'POST',
      headers: {
        'x-github-event': 'pull_request',
        'x-github-delivery': `forge-${++delivery}`,
        'x-hub-signature-256': await sign(SECRET, body),
        'content-type': 'application/json',
      },
      body,
    });
    expect(answer.status, JSON.stringify(answer.body)).to.equal(202);
    const job = await reportsOf(server, answer.body.id, 2);
    const done = (
      await server.json<JobBody & { result: { total_commits: number; head_commit: string; suspicions: unknown[] } }>(
        `/jobs/${answer.body.id}`,
      )
    ).body;
    expect(done.status, JSON.stringify(done)).to.equal('completed');
    expect(done.result.total_commits).to.equal(2);
    expect(done.result.head_commit).to.equal(head);
    expect(job.reports.map((r) => [r.state, r.target])).to.deep.equal([
      ['pending', `acme/human@${head}`],
      ['success', `acme/human@${head}`],
    ]);

    // A draft is acknowledged and skipped; so is an action that changes no commits.
    for (const [change, reason] of [
      [{ draft: true }, 'draft pull request'],
      [{ state: 'closed' }, 'pull request closed'],
    ] as const) {
      const skipped = structuredClone(opened);
      Object.assign(skipped.pull_request, change);
      const text = JSON.stringify(skipped);
      const reply = await server.json<{ ignored: boolean; reason: string }>('/webhooks/github', {
        method: 'POST',
        headers: {
          'x-github-event': 'pull_request',
          'x-github-delivery': `forge-${++delivery}`,
          'x-hub-signature-256': await sign(SECRET, text),
          'content-type': 'application/json',
        },
        body: text,
      });
      expect(reply.status).to.equal(200);
      expect(reply.body).to.deep.include({ ignored: true, reason });
    }
    const labeled = JSON.stringify({ ...opened, action: 'labeled' });
    const reply = await server.json<{ ignored: boolean }>('/webhooks/github', {
      method: 'POST',
      headers: {
        'x-github-event': 'pull_request',
        'x-github-delivery': `forge-${++delivery}`,
        'x-hub-signature-256': await sign(SECRET, labeled),
        'content-type': 'application/json',
      },
      body: labeled,
    });
    expect(reply.body).to.include({ ignored: true });
  });

  it("judges a pushed squash commit by its pull request's original commits, and by itself when they are gone", async () => {
    const repo = git.human;
    const served = path.join(git.served, 'acme/human.git');
    await repo.git(['checkout', '-q', '-b', 'feature-21', git.hashes[8]!]);
    for (let i = 0; i < 3; i++)
      await repo.commit({ message: `Feature step ${i + 1}`, date: 1_700_200_000 + i * 900, addLines: 10 + i });
    const requestHead = (await repo.git(['rev-parse', 'HEAD'])).trim();
    await repo.git(['push', '-q', served, 'feature-21:refs/pull/21/head']);
    await repo.git(['checkout', '-q', 'main']);
    await repo.git(['branch', '-q', '-D', 'feature-21']);
    const squash = await repo.commit({ message: 'Add the feature (#21)', date: 1_700_300_000, addLines: 33 });
    const gone = await repo.commit({ message: 'Add another feature (#22)', date: 1_700_400_000, addLines: 20 });
    await repo.git(['push', '-q', served, 'main:main']);

    const pushOf = (before: string, after: string, subject: string): Record<string, unknown> => ({
      ...githubPushPayload(git.daemon.url('acme/human.git'), before, after),
      commits: [
        {
          id: after,
          message: subject,
          timestamp: new Date().toISOString(),
          author: { name: 'Ada', email: 'ada@example.test' },
        },
      ],
    });
    const mergedAs = (number: number, sha: string, head: string): unknown[] => [
      {
        number,
        state: 'closed',
        merged_at: '2026-11-20T10:00:00Z',
        merge_commit_sha: sha,
        head: { sha: head, ref: `feature-${number}` },
        base: { ref: 'main' },
      },
    ];

    github.script('GET', new RegExp(`^/repos/acme/human/commits/${squash}/pulls`), [
      { status: 200, body: mergedAs(21, squash, requestHead) },
    ]);
    const judged = await reportsOf(server, await push(pushOf(git.hashes[9]!, squash, 'Add the feature (#21)')), 2);
    const first = judged as JobBody & { result: { total_commits: number; squash: Record<string, unknown> } };
    expect(first.status, JSON.stringify(first)).to.equal('completed');
    expect(first.result.total_commits).to.equal(3);
    expect(first.result.squash).to.deep.equal({ commit: squash, request: 21, judged_by: 'request' });
    // Reported where the push landed: the squash commit.
    expect(first.reports.map((r) => r.target)).to.deep.equal([`acme/human@${squash}`, `acme/human@${squash}`]);

    // Request 22's head is not in the repository any more: the squash commit is judged as itself.
    github.script('GET', new RegExp(`^/repos/acme/human/commits/${gone}/pulls`), [
      { status: 200, body: mergedAs(22, gone, 'f'.repeat(40)) },
    ]);
    const second = (await reportsOf(
      server,
      await push(pushOf(squash, gone, 'Add another feature (#22)')),
      2,
    )) as JobBody & { result: { total_commits: number; squash: Record<string, unknown> } };
    expect(second.status, JSON.stringify(second)).to.equal('completed');
    expect(second.result.total_commits).to.equal(1);
    expect(second.result.squash).to.deep.include({ commit: gone, request: 22, judged_by: 'squash' });
    expect(String(second.result.squash.reason)).to.contain('refs/pull/22/head could not be fetched');

    // The forge answering the lookup with a passing failure (502) is asked again, within the job's 10 s.
    await repo.git(['checkout', '-q', '-b', 'feature-23', gone]);
    await repo.commit({ message: 'Another step', date: 1_700_500_000, addLines: 12 });
    const head23 = (await repo.git(['rev-parse', 'HEAD'])).trim();
    await repo.git(['push', '-q', served, 'feature-23:refs/pull/23/head']);
    await repo.git(['checkout', '-q', 'main']);
    await repo.git(['branch', '-q', '-D', 'feature-23']);
    const squash23 = await repo.commit({ message: 'Add a third feature (#23)', date: 1_700_600_000, addLines: 12 });
    await repo.git(['push', '-q', served, 'main:main']);
    github.script('GET', new RegExp(`^/repos/acme/human/commits/${squash23}/pulls`), [
      { status: 502, body: { message: 'Server Error' } },
      { status: 200, body: mergedAs(23, squash23, head23) },
    ]);
    const third = (await reportsOf(
      server,
      await push(pushOf(gone, squash23, 'Add a third feature (#23)')),
      2,
    )) as JobBody & { result: { total_commits: number; squash: Record<string, unknown> } };
    expect(third.result.squash).to.deep.equal({ commit: squash23, request: 23, judged_by: 'request' });
    expect(third.result.total_commits).to.equal(1);
    expect(await github.waitFor('GET', new RegExp(`^/repos/acme/human/commits/${squash23}/pulls`), 2)).to.have.length(
      2,
    );
  });

  it('never shows the token in a log line, a job view or `cadence config`', async () => {
    const logs = JSON.stringify(server.logs);
    expect(logs).to.contain('report sent');
    expect(logs).not.to.contain(TOKEN);
    const views = await (await server.request('/jobs?limit=100')).text();
    expect(views).not.to.contain(TOKEN);
    const config = await runCadence(['config'], {
      cwd: work.path,
      env: { CADENCE_GITHUB_TOKEN: TOKEN, CADENCE_GITLAB_TOKEN: 'glpat-also-secret' },
    });
    expect(config.code, config.stderr).to.equal(0);
    expect(config.stdout).to.match(/github:\n(?:.*\n)*?\s+token: "?\*\*\*\*"?/);
    expect(config.stdout).not.to.contain(TOKEN);
    expect(config.stdout).not.to.contain('glpat-also-secret');
  });

  describe('as a GitHub App', () => {
    let app: ServerProcess;
    before(async () => {
      const { privateKey } = generateKeyPairSync('rsa', {
        modulusLength: 2048,
        privateKeyEncoding: { type: 'pkcs1', format: 'pem' },
        publicKeyEncoding: { type: 'spki', format: 'pem' },
      });
      const keyFile = path.join(work.path, 'app-key.pem');
      await writeFile(keyFile, privateKey, { mode: 0o600 });
      const dir = path.join(work.path, 'app');
      const { mkdir } = await import('node:fs/promises');
      await mkdir(dir);
      app = await startCadenceServer({
        cwd: dir,
        config: {
          security: { allowed_networks: ['127.0.0.0/8'] },
          forges: { github: { api_url: github.apiUrl, app_id: 4242, private_key_path: keyFile } },
          report: { fail_on: 'never' },
        },
      });
    });
    after(async () => app?.stop());

    it('requests an installation token, creates a check run in progress, then completes it with a summary', async () => {
      const seen = github.requests.length;
      const after = git.hashes[9]!;
      const id = await push(
        {
          ...githubPushPayload(git.daemon.url('acme/human.git'), git.hashes[4]!, after),
          installation: { id: 777, node_id: 'MDIzOkludGVncmF0aW9uSW5zdGFsbGF0aW9uNzc3' },
        },
        app,
      );
      const job = await reportsOf(app, id, 2);
      expect(job.reports.map((r) => [r.kind, r.state, r.ok])).to.deep.equal([
        ['check-run', 'in_progress', true],
        ['check-run', 'neutral', true],
      ]);
      const requests = github.requests.slice(seen);
      const token = requests.find((r) => r.path === '/app/installations/777/access_tokens')!;
      expect(String(token.headers.authorization)).to.match(/^bearer [\w-]+\.[\w-]+\.[\w-]+$/i);
      const created = requests.find((r) => r.method === 'POST' && r.path === '/repos/acme/human/check-runs')!;
      expect(created.body).to.include({ name: 'cadence', head_sha: after, status: 'in_progress', external_id: id });
      expect(String(created.headers.authorization)).to.match(/^token ghs_installation\d+$/);
      const completed = requests.find(
        (r) => r.method === 'PATCH' && /^\/repos\/acme\/human\/check-runs\/\d+$/.test(r.path),
      )!;
      expect(completed.body).to.include({ status: 'completed', conclusion: 'neutral' });
      const output = completed.body!.output as { title: string; summary: string };
      expect(output.title).to.match(/^(clean|suspicious|likely_ai_generated): score/);
      expect(output.summary).to.contain('Assistant share').and.contain('| Author | Commits |');
      // No commit status when the App reports.
      expect(requests.filter((r) => STATUS_PATH.test(r.path))).to.have.length(0);
    });
  });
});
