import { expect } from 'chai';
import { createHmac } from 'node:crypto';
import path from 'node:path';
import { startFakeGitea, waitForJob, waitForReports } from '@cadence-detect/test-support';
import { forgeServer, SECRET, webhookServer } from './fixtures.js';

interface Answer {
  id?: string;
  job_id?: string;
  duplicate?: boolean;
  ignored?: boolean;
  error?: string;
  message?: string;
}
interface Outcome {
  reporter: string;
  kind: string;
  target: string;
  state: string;
  ok: boolean;
}
interface JobBody {
  status: string;
  reports?: Outcome[];
  request?: { ref?: string; branch?: string };
  result?: { total_commits: number };
}

/** Gitea's documented push payload (docs.gitea.com, Webhooks), pointed at our repository and range. */
function giteaPushPayload(cloneUrl: string, before: string, after: string): Record<string, unknown> {
  return {
    ref: 'refs/heads/main',
    before,
    after,
    compare_url: `http://127.0.0.1:3000/acme/human/compare/${before}...${after}`,
    commits: [
      {
        id: after,
        message: 'Webhooks Yay!\n',
        url: `http://127.0.0.1:3000/acme/human/commit/${after}`,
        author: { name: 'Gitea', email: 'someone@gitea.io', username: 'gitea' },
        committer: { name: 'Gitea', email: 'someone@gitea.io', username: 'gitea' },
        timestamp: '2017-03-13T13:52:11-04:00',
      },
    ],
    repository: {
      id: 140,
      owner: { id: 1, login: 'acme', full_name: 'Acme', email: 'acme@example.test', username: 'acme' },
      name: 'human',
      full_name: 'acme/human',
      private: false,
      fork: false,
      html_url: 'http://127.0.0.1:3000/acme/human',
      ssh_url: 'ssh://git@127.0.0.1:2222/acme/human.git',
      clone_url: cloneUrl,
      default_branch: 'main',
    },
    pusher: { id: 1, login: 'gitea', username: 'gitea' },
    sender: { id: 1, login: 'gitea', username: 'gitea' },
  };
}

/** Gitea's documented pull_request payload: `action` opened or synchronized, the request's head and base. */
function giteaPullRequestPayload(action: string, cloneUrl: string, number: number, head: string, base: string) {
  const repo = {
    id: 140,
    name: 'human',
    full_name: 'acme/human',
    clone_url: cloneUrl,
    html_url: 'http://127.0.0.1:3000/acme/human',
  };
  return {
    action,
    number,
    pull_request: {
      id: 1000 + number,
      number,
      title: 'Add the parser',
      state: 'open',
      draft: false,
      merged: false,
      head: { label: 'feature', ref: 'feature', sha: head, repo },
      base: { label: 'main', ref: 'main', sha: base, repo },
    },
    repository: repo,
    sender: { id: 1, login: 'ada', username: 'ada' },
  };
}

const sign = (body: string, secret = SECRET): string => createHmac('sha256', secret).update(body).digest('hex');

describe('server: Gitea and Forgejo webhooks (/webhooks/gitea, the gitea forge plugin)', function () {
  this.timeout(90_000);
  let delivery = 0;
  const f = webhookServer('forge-gitea');

  const post = (body: string, headers: Record<string, string>) =>
    f.server.json<Answer>('/webhooks/gitea', {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body,
    });
  const pushBody = (before: number, after: number) =>
    JSON.stringify(giteaPushPayload(f.git.daemon.url('acme/human.git'), f.git.hashes[before]!, f.git.hashes[after]!));

  it('takes a push signed in X-Gitea-Signature: 202 with the job, which reads the pushed range', async () => {
    const body = pushBody(6, 9);
    const { status, body: answer } = await post(body, {
      'x-gitea-event': 'push',
      'x-gitea-delivery': `gitea-${++delivery}`,
      'x-gitea-signature': sign(body),
    });
    expect(status, JSON.stringify(answer)).to.equal(202);
    const job = await waitForJob<JobBody>(f.server, answer.id!);
    expect(job.status).to.equal('completed');
    expect(job.result!.total_commits).to.equal(3);
  });

  it('refuses a missing or wrong signature (401), and a Forgejo delivery unless both its signatures verify', async () => {
    const body = pushBody(7, 9);
    const headers = { 'x-gitea-event': 'push', 'x-gitea-delivery': `gitea-${++delivery}` };
    const none = await post(body, headers);
    expect(none.status).to.equal(401);
    expect(none.body.error).to.equal('invalid_signature');
    expect(none.body.message).to.contain('No X-Gitea-Signature header');
    const wrong = await post(body, { ...headers, 'x-gitea-signature': sign(body, 'another-secret-0123456789') });
    expect(wrong.status).to.equal(401);
    expect(wrong.body.message).to.contain('the X-Gitea-Signature header does not match');
    // Forgejo sends both families of headers: one good signature does not vouch for the other.
    const forgejo = {
      'x-forgejo-event': 'push',
      'x-forgejo-delivery': `forgejo-${++delivery}`,
      'x-gitea-event': 'push',
    };
    const half = await post(body, {
      ...forgejo,
      'x-gitea-signature': sign(body),
      'x-forgejo-signature': sign(body, 'another-secret-0123456789'),
    });
    expect(half.status).to.equal(401);
    expect(half.body.message).to.contain('the X-Forgejo-Signature header does not match');
    const both = await post(body, { ...forgejo, 'x-gitea-signature': sign(body), 'x-forgejo-signature': sign(body) });
    expect(both.status, JSON.stringify(both.body)).to.equal(202);
    const alone = await post(body, {
      'x-forgejo-event': 'push',
      'x-forgejo-delivery': `forgejo-${++delivery}`,
      'x-forgejo-signature': sign(body),
    });
    expect(alone.status, JSON.stringify(alone.body)).to.equal(202);
  });

  it('refuses a form-encoded delivery with a clear 400: Gitea signs the JSON body', async () => {
    const json = pushBody(7, 9);
    const form = `payload=${encodeURIComponent(json)}`;
    const { status, body } = await f.server.json<Answer>('/webhooks/gitea', {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'x-gitea-event': 'push',
        'x-gitea-delivery': `gitea-${++delivery}`,
        'x-gitea-signature': sign(json),
      },
      body: form,
    });
    expect(status).to.equal(400);
    expect(body.error).to.equal('invalid_request');
    expect(body.message).to.contain('application/json');
  });

  it('creates one job for a delivery received twice (X-Gitea-Delivery): the second answer points at the first', async () => {
    const body = pushBody(8, 9);
    const headers = {
      'x-gitea-event': 'push',
      'x-gitea-delivery': 'gitea-same-delivery',
      'x-gitea-signature': sign(body),
    };
    const first = await post(body, headers);
    const second = await post(body, headers);
    expect(first.status).to.equal(202);
    expect(second.status).to.equal(202);
    expect(second.body.job_id).to.equal(first.body.id);
    expect(second.body.duplicate).to.equal(true);
  });

  it('analyzes a pull request opened and then synchronized over its own commits (refs/pull/N/head); ignores other actions', async () => {
    const repo = f.git.human;
    await repo.git(['checkout', '-q', '-b', 'feature-7', f.git.hashes[6]!]);
    const first = await repo.commit({ message: 'Add the parser', date: 1_700_000_000, addLines: 12 });
    await repo.git(['push', '-q', path.join(f.git.served, 'acme/human.git'), 'feature-7:refs/pull/7/head']);
    const cloneUrl = f.git.daemon.url('acme/human.git');
    const opened = JSON.stringify(giteaPullRequestPayload('opened', cloneUrl, 7, first, f.git.hashes[9]!));
    const answer = await post(opened, {
      'x-gitea-event': 'pull_request',
      'x-gitea-delivery': `gitea-${++delivery}`,
      'x-gitea-signature': sign(opened),
    });
    expect(answer.status, JSON.stringify(answer.body)).to.equal(202);
    const job = await waitForJob<JobBody>(f.server, answer.body.id!);
    expect(job.status).to.equal('completed');
    expect(job.result!.total_commits).to.equal(1);

    const second = await repo.commit({ message: 'Test the parser', date: 1_700_000_600, addLines: 8 });
    await repo.git(['push', '-q', '-f', path.join(f.git.served, 'acme/human.git'), 'feature-7:refs/pull/7/head']);
    await repo.git(['checkout', '-q', 'main']);
    const synchronized = JSON.stringify(giteaPullRequestPayload('synchronized', cloneUrl, 7, second, f.git.hashes[9]!));
    const updated = await post(synchronized, {
      'x-gitea-event': 'pull_request',
      'x-gitea-delivery': `gitea-${++delivery}`,
      'x-gitea-signature': sign(synchronized),
    });
    expect(updated.status, JSON.stringify(updated.body)).to.equal(202);
    const again = await waitForJob<JobBody>(f.server, updated.body.id!);
    expect(again.status).to.equal('completed');
    expect(again.result!.total_commits).to.equal(2);

    const closed = JSON.stringify({ ...giteaPullRequestPayload('closed', cloneUrl, 7, second, f.git.hashes[9]!) });
    const ignored = await post(closed, {
      'x-gitea-event': 'pull_request',
      'x-gitea-delivery': `gitea-${++delivery}`,
      'x-gitea-signature': sign(closed),
    });
    expect(ignored.status).to.equal(200);
    expect(ignored.body.ignored).to.equal(true);
  });
});

describe('server: verdicts reported on Gitea and Forgejo (commit statuses and one pull-request comment)', function () {
  this.timeout(90_000);
  const TOKEN = 'gitea-test0token0never0logged01';
  let delivery = 100;
  const f = forgeServer(
    'gitea-report',
    () => startFakeGitea(),
    (gitea) => ({
      forges: { gitea: { api_url: gitea.apiUrl, pull_request_comment: true } },
      env: { CADENCE_GITEA_TOKEN: TOKEN },
    }),
  );

  const send = async (event: string, payload: unknown): Promise<string> => {
    const body = JSON.stringify(payload);
    const { status, body: answer } = await f.server.json<Answer>('/webhooks/gitea', {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-gitea-event': event,
        'x-gitea-delivery': `gitea-${++delivery}`,
        'x-gitea-signature': sign(body),
      },
      body,
    });
    expect(status, JSON.stringify(answer)).to.equal(202);
    return answer.id!;
  };

  it('sets pending then the verdict on the pushed commit, with the token and the job\u2019s address; no comment without a request', async () => {
    const after = f.git.hashes[9]!;
    const id = await send('push', giteaPushPayload(f.git.daemon.url('acme/human.git'), f.git.hashes[5]!, after));
    const job = await waitForReports<JobBody>(f.server, id, 2);
    expect(job.reports!.map((r) => [r.kind, r.state, r.ok])).to.deep.equal([
      ['commit-status', 'pending', true],
      ['commit-status', 'success', true],
    ]);
    const statuses = await f.forge.waitFor('POST', new RegExp(`^/repos/acme/human/statuses/${after}$`), 2);
    expect(statuses.map((r) => r.body?.state)).to.deep.equal(['pending', 'success']);
    expect(statuses[1]!.body).to.include({ context: 'cadence', target_url: `https://cadence.example.test/jobs/${id}` });
    expect(String(statuses[1]!.headers.authorization)).to.equal(`token ${TOKEN}`);
  });

  it('writes one comment on the commit\u2019s open pull request, and edits it on the next push', async () => {
    const repo = f.git.human;
    await repo.git(['checkout', '-q', '-b', 'feature-9', f.git.hashes[6]!]);
    const first = await repo.commit({ message: 'Add the lexer', date: 1_700_100_000, addLines: 10 });
    await repo.git(['push', '-q', path.join(f.git.served, 'acme/human.git'), 'feature-9:refs/pull/9/head']);
    f.forge.pullRequest(first, 9);
    const cloneUrl = f.git.daemon.url('acme/human.git');
    const opened = await send('pull_request', giteaPullRequestPayload('opened', cloneUrl, 9, first, f.git.hashes[9]!));
    const job = await waitForReports<JobBody>(f.server, opened, 3);
    expect(job.reports!.map((r) => [r.kind, r.state, r.ok])).to.deep.include(['pull-request-comment', 'created', true]);
    const created = await f.forge.waitFor('POST', /^\/repos\/acme\/human\/issues\/9\/comments$/, 1);
    expect(String(created[0]!.body?.body)).to.match(/^<!-- cadence-report -->\n\*\*Cadence\*\* on [0-9a-f]{12}/);

    const second = await repo.commit({ message: 'Test the lexer', date: 1_700_100_600, addLines: 6 });
    await repo.git(['push', '-q', '-f', path.join(f.git.served, 'acme/human.git'), 'feature-9:refs/pull/9/head']);
    await repo.git(['checkout', '-q', 'main']);
    f.forge.pullRequest(second, 9);
    const synchronized = await send(
      'pull_request',
      giteaPullRequestPayload('synchronized', cloneUrl, 9, second, f.git.hashes[9]!),
    );
    const again = await waitForReports<JobBody>(f.server, synchronized, 3);
    expect(again.reports!.find((r) => r.kind === 'pull-request-comment')).to.include({
      state: 'updated',
      ok: true,
      target: 'acme/human#9',
    });
    expect(f.forge.requests.filter((r) => r.method === 'POST' && /\/issues\/9\/comments$/.test(r.path))).to.have.length(
      1,
    );
    expect(
      f.forge.requests.some(
        (r) => r.method === 'PATCH' && /^\/repos\/acme\/human\/issues\/comments\/\d+$/.test(r.path),
      ),
    ).to.equal(true);
    // The token is in no log line and no job record.
    expect(JSON.stringify(f.server.logs)).not.to.contain(TOKEN);
    expect(await (await f.server.request('/jobs?limit=100')).text()).not.to.contain(TOKEN);
  });

  it('records a refused token (401) as ERR_FORGE_AUTH at once, and the job still completes; an answer echoing the token leaves none of it in the job or the log', async () => {
    // A proxy in front of the forge can echo the request's headers: whole, and cut at 200 characters.
    f.forge.script('POST', /\/statuses\//, [
      { status: 401, body: { message: 'token is required', echoed: { authorization: `token ${TOKEN}` } } },
      { status: 401, body: { message: `${'.'.repeat(150)} authorization: token ${TOKEN}` } },
    ]);
    const id = await send(
      'push',
      giteaPushPayload(f.git.daemon.url('acme/human.git'), f.git.hashes[7]!, f.git.hashes[9]!),
    );
    const job = await waitForReports<JobBody>(f.server, id, 2);
    expect(job.status).to.equal('completed');
    expect(job.reports!.map((r) => [r.state, r.ok])).to.deep.equal([
      ['pending', false],
      ['success', false],
    ]);
    expect((job.reports as unknown as { error_code: string }[]).map((r) => r.error_code)).to.deep.equal([
      'ERR_FORGE_AUTH',
      'ERR_FORGE_AUTH',
    ]);
    const record = await (await f.server.request(`/jobs/${id}`)).text();
    for (const text of [record, JSON.stringify(f.server.logs)]) expect(text).not.to.contain('test0t');
  });
});
