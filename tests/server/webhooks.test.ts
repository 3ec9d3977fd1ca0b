import { expect } from 'chai';
import { createHmac } from 'node:crypto';
import { sign } from '@octokit/webhooks-methods';
import {
  makeTempDir,
  startCadenceServer,
  waitForJob,
  type ServerProcess,
  type TempDir,
} from '@cadence-detect/test-support';
import { githubPushPayload, gitlabPushPayload, SECRET, serveRepositories, type GitFixtures } from './fixtures.js';

interface Accepted {
  id: string;
  job_id: string;
  status: string;
  duplicate?: boolean;
}
interface JobBody {
  status: string;
  source: string;
  repo: string;
  branch: string | null;
  error_code: string | null;
  result?: { total_commits: number };
}

let delivery = 0;

describe('server: GitHub and GitLab webhooks', function () {
  this.timeout(60_000);
  let work: TempDir;
  let git: GitFixtures;
  let server: ServerProcess;

  before(async () => {
    work = await makeTempDir('cadence-webhooks-');
    git = await serveRepositories(work.path);
    server = await startCadenceServer({ cwd: work.path, config: { security: { allowed_networks: ['127.0.0.0/8'] } } });
  });
  after(async () => {
    await server?.stop();
    await git?.close();
    await work?.remove();
  });

  async function github(
    body: string,
    headers: Record<string, string>,
    signature?: string,
  ): Promise<{ status: number; body: Accepted & { error?: string; ignored?: boolean } }> {
    return server.json('/webhooks/github', {
      method: 'POST',
      headers: {
        'x-github-event': 'push',
        'x-github-delivery': `d-${++delivery}`,
        'x-hub-signature-256': signature ?? (await sign(SECRET, body)),
        'content-type': 'application/json',
        ...headers,
      },
      body,
    });
  }

  async function jobCount(): Promise<number> {
    return (await server.json<unknown[]>('/jobs?limit=100')).body.length;
  }

  it('turns a signed JSON push into a job that analyzes exactly the pushed commits', async () => {
    const payload = JSON.stringify(githubPushPayload(git.daemon.url('acme/human.git'), git.hashes[6]!, git.hashes[9]!));
    const { status, body } = await github(payload, {});
    expect(status).to.equal(202);
    expect(body).to.include({ status: 'queued' });
    const job = await waitForJob<JobBody>(server, body.id);
    expect(job, JSON.stringify(job)).to.include({
      status: 'completed',
      source: 'webhook:github',
      repo: 'acme/human',
      branch: 'main',
    });
    expect(job.result!.total_commits).to.equal(3);
  });

  it('clones a push over smart HTTP, as GitHub serves repositories, analyzing exactly the pushed commits', async () => {
    const payload = JSON.stringify(
      githubPushPayload(git.http.repoUrl('acme/human.git'), git.hashes[4]!, git.hashes[9]!),
    );
    const { status, body } = await github(payload, {});
    expect(status).to.equal(202);
    const job = await waitForJob<JobBody>(server, body.id);
    expect(job, JSON.stringify(job)).to.include({ status: 'completed', repo: 'acme/human' });
    expect(job.result!.total_commits).to.equal(5);
  });

  it('keeps credentials of a clone URL out of the job, its list item and its result', async () => {
    const secretUrl = git.http.repoUrl('acme/human.git').replace('http://', 'http://deploy:tok-5ecret-value@');
    const pushed = await github(JSON.stringify(githubPushPayload(secretUrl, git.hashes[7]!, git.hashes[9]!)), {});
    const asked = await server.json<Accepted>('/api/analyze/repository', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ url: secretUrl }),
    });
    for (const id of [pushed.body.id, asked.body.id]) {
      const job = await waitForJob<JobBody & { url: string }>(server, id);
      expect(job.status, JSON.stringify(job)).to.equal('completed');
      expect(job.url).to.equal(git.http.repoUrl('acme/human.git'));
      const views = [
        JSON.stringify(job),
        await (await server.request(`/api/results/${id}`)).text(),
        await (await server.request('/jobs?limit=100')).text(),
      ];
      for (const view of views) expect(view).not.to.contain('tok-5ecret-value');
    }
  });

  it('accepts the form-encoded content type, signed over the raw form body', async () => {
    const payload = JSON.stringify(githubPushPayload(git.daemon.url('acme/human.git'), '0'.repeat(40), git.hashes[9]!));
    const form = `payload=${encodeURIComponent(payload)}`;
    const { status, body } = await github(
      form,
      { 'content-type': 'application/x-www-form-urlencoded' },
      await sign(SECRET, form),
    );
    expect(status).to.equal(202);
    const job = await waitForJob<JobBody>(server, body.id);
    expect(job.status).to.equal('completed');
    expect(job.result!.total_commits).to.equal(10);
  });

  it('refuses a bad signature, a wrong-length signature and a missing one with 401 and creates no job', async () => {
    const payload = JSON.stringify(githubPushPayload(git.daemon.url('acme/human.git'), git.hashes[6]!, git.hashes[9]!));
    const before = await jobCount();
    for (const signature of [await sign('another-secret', payload), 'sha256=abc', '', 'sha1=0123']) {
      const { status, body } = await github(payload, {}, signature);
      expect(status, signature).to.equal(401);
      expect(body.error).to.equal('invalid_signature');
      // A missing header has a message of its own: the webhook was set up without its secret.
      expect((body as { message?: string }).message, signature).to.match(
        signature === ''
          ? /^No X-Hub-Signature-256 header: set the webhook’s secret/
          : /^Webhook signature verification failed/,
      );
    }
    expect(await jobCount()).to.equal(before);
  });

  it('answers ping with 200, ignores other events, and ignores a branch deletion', async () => {
    const before = await jobCount();
    const ping = await github(JSON.stringify({ zen: 'Keep it logically awesome.' }), { 'x-github-event': 'ping' });
    expect(ping.status).to.equal(200);
    const issues = await github(JSON.stringify({ action: 'opened' }), { 'x-github-event': 'issues' });
    expect(issues.status).to.equal(200);
    expect(issues.body).to.include({ ignored: true, event: 'issues' });
    const deletion = await github(
      JSON.stringify(githubPushPayload(git.daemon.url('acme/human.git'), git.hashes[9]!, '0'.repeat(40))),
      {},
    );
    expect(deletion.status).to.equal(200);
    expect(deletion.body.ignored).to.equal(true);
    expect(await jobCount()).to.equal(before);
  });

  it('creates one job for a delivery received twice; the second answer points at the first job', async () => {
    const payload = JSON.stringify(githubPushPayload(git.daemon.url('acme/human.git'), git.hashes[7]!, git.hashes[9]!));
    const headers = { 'x-github-delivery': 'same-delivery-id' };
    const first = await github(payload, headers);
    const second = await github(payload, headers);
    expect(first.status).to.equal(202);
    expect(second.status).to.equal(202);
    expect(second.body.job_id).to.equal(first.body.job_id);
    expect(second.body.duplicate).to.equal(true);
  });

  it('runs the same chain for every spelling the router accepts, and answers other methods 405', async () => {
    // The exact path is served ahead of the routers; a different case or a trailing slash goes
    // through the router: both must check the signature, count the rate limit and create the job.
    const payload = JSON.stringify(githubPushPayload(git.daemon.url('acme/human.git'), git.hashes[8]!, git.hashes[9]!));
    for (const path of ['/webhooks/github', '/Webhooks/GitHub', '/webhooks/github/']) {
      const headers = {
        'x-github-event': 'push',
        'x-github-delivery': `spelling-${path}`,
        'content-type': 'application/json',
      };
      const refused = await server.request(path, {
        method: 'POST',
        headers: { ...headers, 'x-hub-signature-256': await sign('another-secret', payload) },
        body: payload,
      });
      expect(refused.status, path).to.equal(401);
      const accepted = await server.request(path, {
        method: 'POST',
        headers: { ...headers, 'x-hub-signature-256': await sign(SECRET, payload) },
        body: payload,
      });
      expect(accepted.status, path).to.equal(202);
      expect(accepted.headers.get('x-ratelimit-limit'), `${path} is rate limited`).to.be.a('string');
      const { id } = (await accepted.json()) as Accepted;
      expect((await waitForJob<JobBody>(server, id)).source, path).to.equal('webhook:github');
    }
    for (const path of ['/webhooks/github', '/webhooks/gitlab']) {
      const wrongMethod = await server.request(path, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      });
      expect(wrongMethod.status, path).to.equal(405);
      expect(wrongMethod.headers.get('allow'), path).to.equal('POST');
      expect(((await wrongMethod.json()) as { error: string }).error).to.equal('method_not_allowed');
    }
  });

  it('serves the webhooks under server.base_path only, the exact path included', async () => {
    // The exact-path shortcut runs after the base path is stripped: under /cadence a push to
    // /cadence/webhooks/github is a job, and /webhooks/github answers 404 like every other route.
    const own = await makeTempDir('cadence-webhooks-base-');
    const prefixed = await startCadenceServer({
      cwd: own.path,
      config: { security: { allowed_networks: ['127.0.0.0/8'] }, server: { base_path: '/cadence' } },
    });
    try {
      const payload = JSON.stringify(
        githubPushPayload(git.daemon.url('acme/human.git'), git.hashes[8]!, git.hashes[9]!),
      );
      const headers = async (delivery: string) => ({
        'x-github-event': 'push',
        'x-github-delivery': delivery,
        'content-type': 'application/json',
        'x-hub-signature-256': await sign(SECRET, payload),
      });
      const outside = await prefixed.request('/webhooks/github', {
        method: 'POST',
        headers: await headers('outside-base'),
        body: payload,
      });
      expect(outside.status).to.equal(404);
      const inside = await prefixed.request('/cadence/webhooks/github', {
        method: 'POST',
        headers: await headers('inside-base'),
        body: payload,
      });
      expect(inside.status).to.equal(202);
      const { id } = (await inside.json()) as Accepted;
      const job = await prefixed.json<JobBody>(`/cadence/jobs/${id}`);
      expect([job.status, job.body.source]).to.deep.equal([200, 'webhook:github']);
    } finally {
      await prefixed.stop();
      await own.remove();
    }
  });

  it('refuses malformed payloads that are correctly signed', async () => {
    for (const payload of [
      '{"after": 12}',
      '{"after": "not-a-sha", "ref": "refs/heads/main"}',
      JSON.stringify({ ...githubPushPayload('ext::sh -c id', git.hashes[0]!, git.hashes[1]!) }),
    ]) {
      const { status, body } = await github(payload, {});
      expect(status, payload).to.equal(400);
      expect(body.error).to.equal('invalid_request');
    }
    const notJson = await github('{not json', {});
    expect(notJson.status).to.equal(400);
  });

  it('checks the signature before parsing anything: an unsigned malformed body is 401, not 400', async () => {
    const before = await jobCount();
    for (const body of ['{not json', 'payload=%7Bnot', '']) {
      const { status, body: answer } = await github(body, {}, 'sha256=' + '0'.repeat(64));
      expect(status, body).to.equal(401);
      expect(answer.error).to.equal('invalid_signature');
    }
    const gitlab = await server.json<{ error: string }>('/webhooks/gitlab', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-gitlab-event': 'Push Hook', 'x-gitlab-token': 'wrong' },
      body: '{not json',
    });
    expect([gitlab.status, gitlab.body.error]).to.deep.equal([403, 'invalid_token']);
    expect(await jobCount()).to.equal(before);
  });

  it('reads form-encoded pushes far above the API limit, refuses bodies over 25 MiB with 413, and other charsets with 415', async () => {
    const push = githubPushPayload(git.daemon.url('acme/human.git'), git.hashes[8]!, git.hashes[9]!);
    // GitHub's form-encoded pushes of large commits run to megabytes: 3 MiB of commit messages here.
    const large = JSON.stringify({
      ...push,
      commits: Array.from({ length: 3 }, (_, i) => ({ id: String(i), message: 'm'.repeat(1024 * 1024) })),
    });
    const form = `payload=${encodeURIComponent(large)}`;
    const accepted = await github(
      form,
      { 'content-type': 'application/x-www-form-urlencoded' },
      await sign(SECRET, form),
    );
    expect(accepted.status).to.equal(202);
    const huge = 'x'.repeat(25 * 1024 * 1024 + 1);
    const tooLarge = await github(huge, {}, 'sha256=' + '0'.repeat(64));
    expect([tooLarge.status, tooLarge.body.error]).to.deep.equal([413, 'payload_too_large']);
    const payload = JSON.stringify(push);
    const latin1 = await github(payload, { 'content-type': 'application/json; charset=iso-8859-1' });
    expect([latin1.status, latin1.body.error]).to.deep.equal([415, 'unsupported_media_type']);
    const utf8 = await github(payload, {
      'content-type': 'application/json; charset=UTF-8',
      'x-github-delivery': 'charset-utf8',
    });
    expect(utf8.status).to.equal(202);
    const missingPayload = 'other=1';
    const noPayload = await github(
      missingPayload,
      { 'content-type': 'application/x-www-form-urlencoded' },
      await sign(SECRET, missingPayload),
    );
    expect([noPayload.status, noPayload.body.error]).to.deep.equal([400, 'invalid_request']);
  });

  it('turns a GitLab push with the right token into a job, and refuses a wrong or missing token with 403', async () => {
    const payload = JSON.stringify(gitlabPushPayload(git.daemon.url('acme/human.git'), git.hashes[5]!, git.hashes[9]!));
    const send = (headers: Record<string, string>) =>
      server.json<Accepted & { error?: string }>('/webhooks/gitlab', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-gitlab-event': 'Push Hook', ...headers },
        body: payload,
      });
    const before = await jobCount();
    const wrong = await send({ 'x-gitlab-token': 'wrong' });
    expect([wrong.status, wrong.body.error]).to.deep.equal([403, 'invalid_token']);
    expect((await send({})).status).to.equal(403);
    expect(await jobCount()).to.equal(before);
    const ok = await send({ 'x-gitlab-token': SECRET, 'x-gitlab-event-uuid': 'uuid-1' });
    expect(ok.status).to.equal(202);
    const job = await waitForJob<JobBody>(server, ok.body.id);
    expect(job).to.include({ status: 'completed', source: 'webhook:gitlab' });
    expect(job.result!.total_commits).to.equal(4);
    const again = await send({ 'x-gitlab-token': SECRET, 'idempotency-key': 'key-1' });
    const repeat = await send({ 'x-gitlab-token': SECRET, 'idempotency-key': 'key-1' });
    expect(repeat.body.job_id).to.equal(again.body.job_id);
  });

  it('checks GitLab requests that carry X-Hub-Signature-256 as HMAC instead', async () => {
    const payload = JSON.stringify(gitlabPushPayload(git.daemon.url('acme/human.git'), git.hashes[8]!, git.hashes[9]!));
    const signature = `sha256=${createHmac('sha256', SECRET).update(payload).digest('hex')}`;
    const send = (sig: string) =>
      server.json<Accepted & { error?: string }>('/webhooks/gitlab', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-gitlab-event': 'Push Hook', 'x-hub-signature-256': sig },
        body: payload,
      });
    expect((await send(signature)).status).to.equal(202);
    expect((await send('sha256=00')).status).to.equal(401);
  });

  it('ignores a GitLab branch deletion and other GitLab events', async () => {
    const deletion = JSON.stringify(
      gitlabPushPayload(git.daemon.url('acme/human.git'), git.hashes[9]!, '0'.repeat(40)),
    );
    const send = (body: string, event: string) =>
      server.json<{ ignored?: boolean }>('/webhooks/gitlab', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-gitlab-event': event, 'x-gitlab-token': SECRET },
        body,
      });
    expect((await send(deletion, 'Push Hook')).body.ignored).to.equal(true);
    expect((await send(JSON.stringify({ object_kind: 'issue' }), 'Issue Hook')).body.ignored).to.equal(true);
  });
});
