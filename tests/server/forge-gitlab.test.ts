import { expect } from 'chai';
import path from 'node:path';
import {
  makeTempDir,
  waitForReports,
  startCadenceServer,
  startFakeGitlab,
  type FakeForge,
  type ServerProcess,
  type TempDir,
} from '@cadence-detect/test-support';
import { gitlabPushPayload, SECRET, serveRepositories, type GitFixtures } from './fixtures.js';

interface Outcome {
  reporter: string;
  kind: string;
  target: string;
  state: string;
  ok: boolean;
  error_code: string | null;
}
interface JobBody {
  status: string;
  reports: Outcome[];
  result?: { assessment: string };
}

const TOKEN = 'glpat-test0token0never0logged01';
const STATUS_PATH = /^\/projects\/15\/statuses\/[0-9a-f]{40}/;
const NOTES_PATH = /^\/projects\/15\/merge_requests\/3\/notes/;

/** The job once its record holds `count` reporter outcomes. */
const reportsOf = (server: ServerProcess, id: string, count: number): Promise<JobBody> =>
  waitForReports<JobBody>(server, id, count);

describe('server: verdicts reported on GitLab (commit statuses and one merge request note)', function () {
  this.timeout(90_000);
  let work: TempDir;
  let git: GitFixtures;
  let gitlab: FakeForge;
  let server: ServerProcess;

  before(async () => {
    work = await makeTempDir('cadence-forge-gitlab-');
    git = await serveRepositories(work.path);
    gitlab = await startFakeGitlab();
    server = await startCadenceServer({
      cwd: work.path,
      config: {
        security: { allowed_networks: ['127.0.0.0/8'] },
        forges: { gitlab: { api_url: gitlab.apiUrl, merge_request_note: true } },
        server: { public_url: 'https://cadence.example.test' },
      },
      env: { CADENCE_GITLAB_TOKEN: TOKEN },
    });
  });
  after(async () => {
    await server?.stop();
    await gitlab?.close();
    await git?.close();
    await work?.remove();
  });

  async function push(before: string, after: string, repository = 'acme/human.git'): Promise<string> {
    const { status, body } = await server.json<{ id: string }>('/webhooks/gitlab', {
      method: 'POST',
      headers: { 'x-gitlab-event': 'Push Hook', 'x-gitlab-token': SECRET, 'content-type': 'application/json' },
      body: JSON.stringify(gitlabPushPayload(git.daemon.url(repository), before, after)),
    });
    expect(status, JSON.stringify(body)).to.equal(202);
    return body.id;
  }

  it('sets running then the verdict on the pushed commit, and writes one note on its merge request that the next push updates', async () => {
    const after = git.hashes[9]!;
    const first = await reportsOf(server, await push(git.hashes[5]!, after), 3);
    expect(first.status).to.equal('completed');
    expect(first.reports.map((r) => [r.kind, r.state, r.ok])).to.deep.equal([
      ['commit-status', 'running', true],
      ['commit-status', 'success', true],
      ['merge-request-note', 'created', true],
    ]);
    expect(first.reports[2]!.target).to.equal('acme/human!3');
    const statuses = gitlab.requests.filter((r) => r.method === 'POST' && STATUS_PATH.test(r.path));
    expect(statuses).to.have.length(2);
    for (const request of statuses) {
      expect(request.path.split('?')[0]).to.equal(`/projects/15/statuses/${after}`);
      expect(String(request.headers['private-token'])).to.equal(TOKEN);
    }
    const finalStatus = {
      ...Object.fromEntries(new URLSearchParams(statuses[1]!.path.split('?')[1] ?? '')),
      ...statuses[1]!.body,
    };
    expect(finalStatus).to.include({ state: 'success', name: 'cadence' });
    expect(String(finalStatus.description)).to.match(new RegExp(`^${first.result!.assessment}: score`));
    expect(String(finalStatus.target_url)).to.match(/^https:\/\/cadence\.example\.test\/jobs\//);

    const second = await reportsOf(server, await push(git.hashes[7]!, after), 3);
    expect(second.reports[2]).to.include({ kind: 'merge-request-note', state: 'updated', ok: true });
    const created = gitlab.requests.filter((r) => r.method === 'POST' && NOTES_PATH.test(r.path));
    const updated = gitlab.requests.filter((r) => r.method === 'PUT' && NOTES_PATH.test(r.path));
    expect(created).to.have.length(1);
    expect(updated).to.have.length(1);
    expect(String(updated[0]!.body?.body)).to.contain('<!-- cadence-report -->').and.contain('| Author | Commits |');
  });

  it('retries server errors with back-off, records a 401 without failing the job, and a failed job turns running into failed', async () => {
    gitlab.script('POST', STATUS_PATH, [{ status: 500, body: { message: '500 Internal Server Error' } }]);
    const retried = await reportsOf(server, await push(git.hashes[6]!, git.hashes[9]!), 3);
    expect(
      retried.reports.every((r) => r.ok),
      JSON.stringify(retried.reports),
    ).to.equal(true);

    gitlab.script('POST', STATUS_PATH, [
      { status: 401, body: { message: '401 Unauthorized' } },
      { status: 401, body: { message: '401 Unauthorized' } },
    ]);
    const refused = await reportsOf(server, await push(git.hashes[6]!, git.hashes[8]!), 2);
    expect(refused.status).to.equal('completed');
    expect(refused.reports.slice(0, 2).map((r) => [r.state, r.ok, r.error_code])).to.deep.equal([
      ['running', false, 'ERR_FORGE_AUTH'],
      ['success', false, 'ERR_FORGE_AUTH'],
    ]);

    const failed = await reportsOf(server, await push(git.hashes[6]!, git.hashes[9]!, 'acme/missing.git'), 2);
    expect(failed.status).to.equal('failed');
    expect(failed.reports.map((r) => [r.state, r.ok])).to.deep.equal([
      ['running', true],
      ['failed', true],
    ]);
  });

  it('analyzes a merge request over exactly its commits, fetched as refs/merge-requests/N/head, and reports on its head', async () => {
    const repo = git.human;
    await repo.git(['checkout', '-q', '-b', 'mr-4', git.hashes[7]!]);
    const head = await repo.commit({ message: 'Add the exporter', date: 1_700_100_000, addLines: 20 });
    await repo.git(['push', '-q', path.join(git.served, 'acme/human.git'), 'mr-4:refs/merge-requests/4/head']);
    await repo.git(['checkout', '-q', 'main']);
    await repo.git(['branch', '-q', '-D', 'mr-4']);
    const payload = {
      object_kind: 'merge_request',
      event_type: 'merge_request',
      user: { name: 'Ada', username: 'ada' },
      project: {
        id: 15,
        name: 'human',
        path_with_namespace: 'acme/human',
        git_http_url: git.daemon.url('acme/human.git'),
      },
      object_attributes: {
        iid: 4,
        action: 'open',
        state: 'opened',
        draft: false,
        work_in_progress: false,
        source_branch: 'mr-4',
        target_branch: 'main',
        last_commit: { id: head, message: 'Add the exporter' },
      },
    };
    const { status, body } = await server.json<{ id: string }>('/webhooks/gitlab', {
      method: 'POST',
      headers: { 'x-gitlab-event': 'Merge Request Hook', 'x-gitlab-token': SECRET, 'content-type': 'application/json' },
      body: JSON.stringify(payload),
    });
    expect(status, JSON.stringify(body)).to.equal(202);
    const job = await reportsOf(server, body.id, 2);
    const done = (
      await server.json<JobBody & { result: { total_commits: number; head_commit: string } }>(`/jobs/${body.id}`)
    ).body;
    expect(done.status, JSON.stringify(done)).to.equal('completed');
    expect(done.result.total_commits).to.equal(1);
    expect(done.result.head_commit).to.equal(head);
    expect(job.reports.slice(0, 2).map((r) => [r.state, r.target])).to.deep.equal([
      ['running', `acme/human@${head}`],
      ['success', `acme/human@${head}`],
    ]);
    const draft = await server.json<{ ignored: boolean; reason: string }>('/webhooks/gitlab', {
      method: 'POST',
      headers: { 'x-gitlab-event': 'Merge Request Hook', 'x-gitlab-token': SECRET, 'content-type': 'application/json' },
      body: JSON.stringify({ ...payload, object_attributes: { ...payload.object_attributes, draft: true } }),
    });
    expect(draft.body).to.deep.include({ ignored: true, reason: 'draft merge request' });
  });

  it("judges a pushed squash commit by its merge request's original commits (the merge request the API says it squashes)", async () => {
    const repo = git.human;
    const served = path.join(git.served, 'acme/human.git');
    await repo.git(['checkout', '-q', '-b', 'mr-9', git.hashes[8]!]);
    for (let i = 0; i < 2; i++)
      await repo.commit({ message: `Exporter step ${i + 1}`, date: 1_700_500_000 + i * 600, addLines: 9 + i });
    const requestHead = (await repo.git(['rev-parse', 'HEAD'])).trim();
    await repo.git(['push', '-q', served, 'mr-9:refs/merge-requests/9/head']);
    await repo.git(['checkout', '-q', 'main']);
    await repo.git(['branch', '-q', '-D', 'mr-9']);
    const before = (await repo.git(['rev-parse', 'HEAD'])).trim();
    const squash = await repo.commit({ message: 'Add the exporter', date: 1_700_600_000, addLines: 19 });
    await repo.git(['push', '-q', served, 'main:main']);
    gitlab.script('GET', new RegExp(`^/projects/15/repository/commits/${squash}/merge_requests`), [
      {
        status: 200,
        body: [
          {
            id: 99,
            iid: 9,
            state: 'merged',
            squash: true,
            squash_commit_sha: squash,
            merge_commit_sha: null,
            sha: requestHead,
          },
        ],
      },
    ]);
    const payload = {
      ...gitlabPushPayload(git.daemon.url('acme/human.git'), before, squash),
      commits: [{ id: squash, message: 'Add the exporter' }],
      total_commits_count: 1,
    };
    const { status, body } = await server.json<{ id: string }>('/webhooks/gitlab', {
      method: 'POST',
      headers: { 'x-gitlab-event': 'Push Hook', 'x-gitlab-token': SECRET, 'content-type': 'application/json' },
      body: JSON.stringify(payload),
    });
    expect(status, JSON.stringify(body)).to.equal(202);
    await reportsOf(server, body.id, 2);
    const done = (
      await server.json<JobBody & { result: { total_commits: number; squash: Record<string, unknown> } }>(
        `/jobs/${body.id}`,
      )
    ).body;
    expect(done.status, JSON.stringify(done)).to.equal('completed');
    expect(done.result.total_commits).to.equal(2);
    expect(done.result.squash).to.deep.equal({ commit: squash, request: 9, judged_by: 'request' });
  });

  it('keeps the token out of every log line and job view', async () => {
    expect(JSON.stringify(server.logs)).not.to.contain(TOKEN);
    expect(await (await server.request('/jobs?limit=100')).text()).not.to.contain(TOKEN);
  });
});
