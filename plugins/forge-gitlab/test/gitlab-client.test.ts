import { expect } from 'chai';
import { startFakeGitlab, type FakeForge } from '@cadence-detect/test-support';
import { forgeReportCall } from '@cadence-detect/forge-kit';
import { classify, gitlabClient } from '../src/gitlab-client.js';
import { gitlabCredentials } from '../src/index.js';
import { gitlabSquash } from '../src/squash.js';

const SHA = 'a'.repeat(40);
const HEAD = 'b'.repeat(40);
const MERGE_REQUESTS = new RegExp(`^/projects/15/repository/commits/${SHA}/merge_requests`);

/** The one GitLab client and its retries (the SDK's retrying()), against a GitLab API on 127.0.0.1. */
describe('GitLab client: one client, one retry policy, for look-ups and reports', function () {
  this.timeout(30_000);
  let gitlab: FakeForge;
  before(async () => {
    gitlab = await startFakeGitlab();
  });
  after(() => gitlab.close());

  const credentials = () => gitlabCredentials({ token: 'glpat-test', api_url: gitlab.apiUrl })!;
  const target = { forge: 'gitlab', repository: 'acme/app', sha: SHA, project_id: 15 } as const;
  const asked = () => gitlab.requests.filter((r) => MERGE_REQUESTS.test(r.path)).length;

  it('decides once whether GitLab is configured: a token, the API\u2019s host without /api/v4', () => {
    expect(gitlabCredentials({ token: null, api_url: 'https://gitlab.example/api/v4' })).to.equal(null);
    expect(gitlabCredentials({ token: 't', api_url: 'https://gitlab.example/api/v4/' })).to.deep.equal({
      host: 'https://gitlab.example',
      token: 't',
    });
  });

  it('finds the merged merge request a commit squashes, asking again after a 5xx', async () => {
    gitlab.script('GET', MERGE_REQUESTS, [
      { status: 500, body: { message: '500 Internal Server Error' } },
      {
        status: 200,
        body: [
          { iid: 3, state: 'opened', sha: HEAD },
          { iid: 9, state: 'merged', squash_commit_sha: SHA, sha: HEAD },
        ],
      },
    ]);
    const before = asked();
    const started = Date.now();
    expect(await gitlabSquash(credentials(), target, AbortSignal.timeout(10_000))).to.deep.equal({
      number: 9,
      ref: 'refs/merge-requests/9/head',
      head: HEAD,
    });
    expect(asked() - before).to.equal(2);
    expect(Date.now() - started, 'one back-off of about a second').to.be.within(900, 5000);
  });

  it('does not ask again after an answer that will not change, and stops with its signal', async () => {
    gitlab.script('GET', MERGE_REQUESTS, [{ status: 403, body: { message: '403 Forbidden' } }]);
    const before = asked();
    const refused = await gitlabSquash(credentials(), target, AbortSignal.timeout(10_000)).then(
      () => null,
      (error: unknown) => error,
    );
    expect(refused).to.be.an('error');
    expect(asked() - before).to.equal(1);
    gitlab.script(
      'GET',
      MERGE_REQUESTS,
      [500, 500, 500].map(() => ({ status: 500, body: { message: 'down' } })),
    );
    const started = Date.now();
    const stopped = await gitlabSquash(credentials(), target, AbortSignal.timeout(300)).then(
      () => null,
      (error: unknown) => error as Error,
    );
    expect(stopped?.name).to.equal('TimeoutError');
    expect(Date.now() - started).to.be.below(1000);
  });

  it('records a report call\u2019s outcome: retried 5xx, an auth refusal at once, and a stop that ends the retries', async () => {
    const api = gitlabClient(credentials(), { timeoutMs: 5000 });
    const status = () => api.Commits.editStatus(15, SHA, 'running', { name: 'cadence' });
    const STATUS = new RegExp(`^/projects/15/statuses/${SHA}`);
    gitlab.script('POST', STATUS, [{ status: 500, body: { message: 'down' } }]);
    expect(await forgeReportCall(status, { deadline: Date.now() + 20_000, classify })).to.deep.include({ ok: true });

    gitlab.script('POST', STATUS, [{ status: 401, body: { message: '401 Unauthorized' } }]);
    expect(await forgeReportCall(status, { deadline: Date.now() + 20_000, classify })).to.deep.equal({
      ok: false,
      code: 'ERR_FORGE_AUTH',
      status: 401,
      reason: 'HTTP 401: 401 Unauthorized',
    });

    gitlab.script(
      'POST',
      STATUS,
      [500, 500, 500, 500].map(() => ({ status: 500, body: { message: 'down' } })),
    );
    const stop = new AbortController();
    // The final status goes ahead once the first attempt has been answered 500.
    const asked = gitlab.requests.filter((r) => r.method === 'POST' && STATUS.test(r.path)).length;
    void gitlab.waitFor('POST', STATUS, asked + 1).then(() => stop.abort());
    const started = Date.now();
    const stopped = await forgeReportCall(status, { deadline: Date.now() + 20_000, stop: stop.signal, classify });
    expect(stopped).to.deep.include({ ok: false, code: 'ERR_FORGE_UNAVAILABLE', status: 500 });
    expect(stopped.ok === false && stopped.reason).to.match(/stopped retrying when the final status went ahead$/);
    expect(Date.now() - started).to.be.below(1000);
  });
});
