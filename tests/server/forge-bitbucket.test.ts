import { expect } from 'chai';
import { createHmac } from 'node:crypto';
import path from 'node:path';
import { exportRepository, startFakeBitbucket, waitForJob, waitForReports } from '@cadence-detect/test-support';
import { forgeServer, SECRET, webhookServer, type GitFixtures } from './fixtures.js';

interface Answer {
  id?: string;
  job_id?: string;
  duplicate?: boolean;
  ignored?: boolean;
  reason?: string;
  error?: string;
  message?: string;
}
interface Outcome {
  reporter: string;
  kind: string;
  target: string;
  state: string;
  ok: boolean;
  error_code?: string | null;
  reason?: string;
}
interface JobBody {
  status: string;
  reports?: Outcome[];
  result?: { total_commits: number; head_commit: string };
  error_code?: string;
  error_message?: string;
}

/** A repository as Bitbucket's payloads describe it: its web link is where the clone URL comes from. */
function bitbucketRepository(href: string, fullName = 'acme/human') {
  return {
    type: 'repository',
    full_name: fullName,
    name: fullName.split('/')[1],
    uuid: '{0c6d9b6e-1111-4a2b-9c3d-5e6f7a8b9c0d}',
    is_private: true,
    scm: 'git',
    links: {
      self: { href: `https://api.bitbucket.org/2.0/repositories/${fullName}` },
      html: { href },
      avatar: { href: `https://bytebucket.org/ravatar/%7B0c6d9b6e%7D?ts=default` },
    },
    owner: { type: 'team', username: 'acme', display_name: 'Acme' },
  };
}

/** Bitbucket Cloud's documented `repo:push` payload (Event payloads, Push): one change per branch pushed. */
function bitbucketPushPayload(href: string, before: string | null, after: string, branch = 'main') {
  const reference = (hash: string) => ({
    type: 'branch',
    name: branch,
    target: { type: 'commit', hash, message: 'Update the parser\n', date: '2026-11-20T10:00:00+00:00' },
    links: { html: { href: `${href}/branch/${branch}` } },
  });
  return {
    actor: { type: 'user', display_name: 'Ada', account_id: '557058:ada' },
    repository: bitbucketRepository(href),
    push: {
      changes: [
        {
          old: before ? reference(before) : null,
          new: reference(after),
          created: before === null,
          forced: false,
          closed: false,
          truncated: false,
          commits: [{ type: 'commit', hash: after, message: 'Update the parser\n' }],
        },
      ],
    },
  };
}

/** Bitbucket Cloud's documented `pullrequest:created`/`pullrequest:updated` payload: the heads by their first 12 characters. */
function bitbucketPullRequestPayload(href: string, id: number, sourceBranch: string, head: string, base: string) {
  const repository = bitbucketRepository(href);
  return {
    actor: { type: 'user', display_name: 'Ada', account_id: '557058:ada' },
    repository,
    pullrequest: {
      type: 'pullrequest',
      id,
      title: 'Add the parser',
      state: 'OPEN',
      draft: false,
      source: {
        branch: { name: sourceBranch },
        commit: { type: 'commit', hash: head.slice(0, 12) },
        repository,
      },
      destination: {
        branch: { name: 'main' },
        commit: { type: 'commit', hash: base.slice(0, 12) },
        repository,
      },
      links: { html: { href: `${href}/pull-requests/${id}` } },
    },
  };
}

const sign = (body: string, secret = SECRET): string =>
  `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;

/** The daemon's URL of a served repository, as Bitbucket's web link (no `.git`). */
const webLink = (git: GitFixtures, name = 'acme/human'): string => git.daemon.url(`${name}.git`).replace(/\.git$/, '');

describe('server: Bitbucket Cloud webhooks (/webhooks/bitbucket, the bitbucket forge plugin)', function () {
  this.timeout(90_000);
  let delivery = 0;
  const uuid = () => `{8d3e4f5a-0000-4000-8000-${String(++delivery).padStart(12, '0')}}`;
  const f = webhookServer('forge-bitbucket');

  const post = (body: string, headers: Record<string, string>) =>
    f.server.json<Answer>('/webhooks/bitbucket', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'user-agent': 'Bitbucket-Webhooks/2.0', ...headers },
      body,
    });

  /** A delivery as Bitbucket sends it: signed, with its event and a new request id. */
  const deliver = (event: string, body: string) =>
    post(body, { 'x-event-key': event, 'x-request-uuid': uuid(), 'x-hub-signature': sign(body) });

  it('takes a signed repo:push: 202 with the job, which reads the pushed range from the web link plus .git', async () => {
    // The link carries a user name, as Bitbucket's links may: the clone URL carries none.
    const href = webLink(f.git).replace('git://', 'git://someone@');
    const body = JSON.stringify(bitbucketPushPayload(href, f.git.hashes[6]!, f.git.hashes[9]!));
    const { status, body: answer } = await deliver('repo:push', body);
    expect(status, JSON.stringify(answer)).to.equal(202);
    const job = await waitForJob<JobBody & { request?: { url?: string } }>(f.server, answer.id!);
    expect(job.status, JSON.stringify(job)).to.equal('completed');
    expect(job.result!.total_commits).to.equal(3);
    expect(job.request?.url ?? '').to.not.contain('someone@');
  });

  it('refuses a missing, wrong or unprefixed signature with 401, and a form body with 400', async () => {
    const body = JSON.stringify(bitbucketPushPayload(webLink(f.git), f.git.hashes[7]!, f.git.hashes[9]!));
    const headers = { 'x-event-key': 'repo:push', 'x-request-uuid': uuid() };
    const none = await post(body, headers);
    expect(none.status).to.equal(401);
    expect(none.body.error).to.equal('invalid_signature');
    expect(none.body.message).to.contain('No X-Hub-Signature header');
    const wrong = await post(body, { ...headers, 'x-hub-signature': sign(body, 'another-secret-0123456789') });
    expect(wrong.status).to.equal(401);
    expect(wrong.body.message).to.contain('X-Hub-Signature header does not match');
    const bare = await post(body, { ...headers, 'x-hub-signature': sign(body).slice('sha256='.length) });
    expect(bare.status).to.equal(401);
    const form = await f.server.json<Answer>('/webhooks/bitbucket', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers, 'x-hub-signature': sign(body) },
      body: `payload=${encodeURIComponent(body)}`,
    });
    expect(form.status).to.equal(400);
    expect(form.body.error).to.equal('invalid_request');
    expect(form.body.message).to.contain('application/json');
  });

  it('creates one job for a delivery received twice (X-Request-UUID); ignores tags, deleted branches and other events', async () => {
    const body = JSON.stringify(bitbucketPushPayload(webLink(f.git), f.git.hashes[8]!, f.git.hashes[9]!));
    const headers = { 'x-event-key': 'repo:push', 'x-request-uuid': uuid(), 'x-hub-signature': sign(body) };
    const first = await post(body, headers);
    const second = await post(body, headers);
    expect(first.status).to.equal(202);
    expect(second.status).to.equal(202);
    expect(second.body.job_id).to.equal(first.body.id);
    expect(second.body.duplicate).to.equal(true);

    const deleted = bitbucketPushPayload(webLink(f.git), f.git.hashes[8]!, f.git.hashes[9]!);
    (deleted.push.changes[0] as { new: unknown }).new = null;
    const gone = JSON.stringify(deleted);
    const ignored = await deliver('repo:push', gone);
    expect(ignored.status).to.equal(200);
    expect(ignored.body).to.include({ ignored: true, reason: 'branch deleted' });
    const tag = bitbucketPushPayload(webLink(f.git), null, f.git.hashes[9]!);
    (tag.push.changes[0]!.new as { type: string }).type = 'tag';
    const tagged = JSON.stringify(tag);
    const tagAnswer = await deliver('repo:push', tagged);
    expect(tagAnswer.body).to.include({ ignored: true, reason: 'tag push' });
    const fork = '{}';
    const other = await deliver('repo:fork', fork);
    expect(other.status).to.equal(200);
    expect(other.body.ignored).to.equal(true);
  });

  it('refuses a payload that names no repository link or a head that is no commit id (400, naming the field)', async () => {
    const payload = bitbucketPullRequestPayload(webLink(f.git), 3, 'feature-3', f.git.hashes[9]!, f.git.hashes[6]!);
    (payload.pullrequest.source.commit as { hash: string }).hash = '--upload-pack';
    const bad = JSON.stringify(payload);
    const answer = await deliver('pullrequest:created', bad);
    expect(answer.status).to.equal(400);
    expect(answer.body.message).to.contain('pullrequest.source.commit.hash');
    const noLink = bitbucketPushPayload(webLink(f.git), f.git.hashes[8]!, f.git.hashes[9]!);
    delete (noLink.repository.links as { html?: unknown }).html;
    const text = JSON.stringify(noLink);
    const refused = await deliver('repo:push', text);
    expect(refused.status).to.equal(400);
    expect(refused.body.message).to.contain('repository.links.html.href');
  });

  it('analyzes a pull request created, then updated, over its own commits: the source branch fetched, its 12-character head resolved', async () => {
    const repo = f.git.human;
    await repo.git(['checkout', '-q', '-b', 'feature-7', f.git.hashes[6]!]);
    const first = await repo.commit({ message: 'Add the parser', date: 1_700_000_000, addLines: 12 });
    await repo.git(['push', '-q', path.join(f.git.served, 'acme/human.git'), 'feature-7:refs/heads/feature-7']);
    const created = JSON.stringify(
      bitbucketPullRequestPayload(webLink(f.git), 7, 'feature-7', first, f.git.hashes[9]!),
    );
    const answer = await deliver('pullrequest:created', created);
    expect(answer.status, JSON.stringify(answer.body)).to.equal(202);
    const job = await waitForJob<JobBody>(f.server, answer.body.id!);
    expect(job.status, JSON.stringify(job)).to.equal('completed');
    expect(job.result!.total_commits).to.equal(1);
    expect(job.result!.head_commit).to.equal(first);

    const second = await repo.commit({ message: 'Test the parser', date: 1_700_000_600, addLines: 8 });
    await repo.git(['push', '-q', '-f', path.join(f.git.served, 'acme/human.git'), 'feature-7:refs/heads/feature-7']);
    await repo.git(['checkout', '-q', 'main']);
    const updated = JSON.stringify(
      bitbucketPullRequestPayload(webLink(f.git), 7, 'feature-7', second, f.git.hashes[9]!),
    );
    const again = await deliver('pullrequest:updated', updated);
    expect(again.status, JSON.stringify(again.body)).to.equal(202);
    const job2 = await waitForJob<JobBody>(f.server, again.body.id!);
    expect(job2.status, JSON.stringify(job2)).to.equal('completed');
    expect(job2.result!.total_commits).to.equal(2);

    const merged = bitbucketPullRequestPayload(webLink(f.git), 7, 'feature-7', second, f.git.hashes[9]!);
    (merged.pullrequest as { state: string }).state = 'MERGED';
    const text = JSON.stringify(merged);
    const ignored = await deliver('pullrequest:updated', text);
    expect(ignored.status).to.equal(200);
    expect(ignored.body).to.include({ ignored: true, reason: 'pull request merged' });
  });

  it('analyzes a fork\u2019s pull request from the fork: its source branch, from the merge base with the fork\u2019s copy of the target', async () => {
    const repo = f.git.human;
    await exportRepository(f.git.served, 'ada/human-fork.git', repo.dir);
    await repo.git(['checkout', '-q', '-b', 'fork-feature', f.git.hashes[9]!]);
    const head = await repo.commit({ message: 'Add the fork\u2019s parser', date: 1_700_200_000, addLines: 9 });
    await repo.git([
      'push',
      '-q',
      path.join(f.git.served, 'ada/human-fork.git'),
      'fork-feature:refs/heads/fork-feature',
    ]);
    await repo.git(['checkout', '-q', 'main']);
    const payload = bitbucketPullRequestPayload(webLink(f.git), 11, 'fork-feature', head, f.git.hashes[9]!);
    (payload.pullrequest.source as { repository: unknown }).repository = bitbucketRepository(
      webLink(f.git, 'ada/human-fork'),
      'ada/human-fork',
    );
    const body = JSON.stringify(payload);
    const answer = await deliver('pullrequest:created', body);
    expect(answer.status, JSON.stringify(answer.body)).to.equal(202);
    const job = await waitForJob<JobBody & { forge?: { repository: string } }>(f.server, answer.body.id!);
    expect(job.status, JSON.stringify(job)).to.equal('completed');
    expect(job.result!.total_commits).to.equal(1);
    expect(job.result!.head_commit).to.equal(head);
  });

  it('fails a request job clearly when its head is not on the source branch (ERR_NO_COMMITS_FOUND)', async () => {
    const body = JSON.stringify(
      bitbucketPullRequestPayload(webLink(f.git), 8, 'main', 'abcdef012345'.padEnd(40, '0'), f.git.hashes[9]!),
    );
    const answer = await deliver('pullrequest:created', body);
    expect(answer.status, JSON.stringify(answer.body)).to.equal(202);
    const job = await waitForJob<JobBody>(f.server, answer.body.id!);
    expect(job).to.include({ status: 'failed', error_code: 'ERR_NO_COMMITS_FOUND' });
  });
});

describe('server: verdicts reported on Bitbucket Cloud (build statuses and one pull-request comment)', function () {
  this.timeout(90_000);
  const TOKEN = 'bitbucket-test0token0never0logged01';
  let delivery = 100;
  const f = forgeServer('bitbucket-report', startFakeBitbucket, (bitbucket) => ({
    forges: { bitbucket: { api_url: bitbucket.apiUrl, pull_request_comment: true } },
    env: { CADENCE_BITBUCKET_TOKEN: TOKEN },
  }));

  const send = async (event: string, payload: unknown): Promise<string> => {
    const body = JSON.stringify(payload);
    const { status, body: answer } = await f.server.json<Answer>('/webhooks/bitbucket', {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-event-key': event,
        'x-request-uuid': `{report-${++delivery}}`,
        'x-hub-signature': sign(body),
      },
      body,
    });
    expect(status, JSON.stringify(answer)).to.equal(202);
    return answer.id!;
  };

  it('sets INPROGRESS then the verdict on the pushed commit, linking the job, with the token as a bearer', async () => {
    const after = f.git.hashes[9]!;
    const id = await send('repo:push', bitbucketPushPayload(webLink(f.git), f.git.hashes[5]!, after));
    const job = await waitForReports<JobBody>(f.server, id, 2);
    expect(job.reports!.map((r) => [r.kind, r.state, r.ok])).to.deep.equal([
      ['build-status', 'INPROGRESS', true],
      ['build-status', 'SUCCESSFUL', true],
    ]);
    const statuses = await f.forge.waitFor(
      'POST',
      new RegExp(`^/repositories/acme/human/commit/${after}/statuses/build$`),
      2,
    );
    expect(statuses.map((r) => r.body?.state)).to.deep.equal(['INPROGRESS', 'SUCCESSFUL']);
    expect(statuses[1]!.body).to.include({ key: 'cadence', url: `https://cadence.example.test/jobs/${id}` });
    expect(String(statuses[1]!.headers.authorization)).to.equal(`Bearer ${TOKEN}`);
  });

  it('writes one comment on the open pull request, on its 12-character head, and edits it on the next update', async () => {
    const repo = f.git.human;
    await repo.git(['checkout', '-q', '-b', 'feature-9', f.git.hashes[6]!]);
    const first = await repo.commit({ message: 'Add the lexer', date: 1_700_100_000, addLines: 10 });
    await repo.git(['push', '-q', path.join(f.git.served, 'acme/human.git'), 'feature-9:refs/heads/feature-9']);
    f.forge.pullRequest(first, 9);
    const opened = await send(
      'pullrequest:created',
      bitbucketPullRequestPayload(webLink(f.git), 9, 'feature-9', first, f.git.hashes[9]!),
    );
    const job = await waitForReports<JobBody>(f.server, opened, 3);
    expect(job.reports!.map((r) => [r.kind, r.state, r.ok])).to.deep.include(['pull-request-comment', 'created', true]);
    await f.forge.waitFor(
      'POST',
      new RegExp(`^/repositories/acme/human/commit/${first.slice(0, 12)}/statuses/build$`),
      2,
    );
    const created = await f.forge.waitFor('POST', /^\/repositories\/acme\/human\/pullrequests\/9\/comments$/, 1);
    const raw = (created[0]!.body?.content as { raw: string }).raw;
    expect(raw).to.match(/^<!-- cadence-report -->\n\*\*Cadence\*\* on [0-9a-f]{12}/);

    const second = await repo.commit({ message: 'Test the lexer', date: 1_700_100_600, addLines: 6 });
    await repo.git(['push', '-q', '-f', path.join(f.git.served, 'acme/human.git'), 'feature-9:refs/heads/feature-9']);
    await repo.git(['checkout', '-q', 'main']);
    f.forge.pullRequest(second, 9);
    const updated = await send(
      'pullrequest:updated',
      bitbucketPullRequestPayload(webLink(f.git), 9, 'feature-9', second, f.git.hashes[9]!),
    );
    const again = await waitForReports<JobBody>(f.server, updated, 3);
    expect(again.reports!.find((r) => r.kind === 'pull-request-comment')).to.include({
      state: 'updated',
      ok: true,
      target: 'acme/human#9',
    });
    const posts = f.forge.requests.filter((r) => r.method === 'POST' && /\/pullrequests\/9\/comments$/.test(r.path));
    expect(posts).to.have.length(1);
    expect(
      f.forge.requests.some(
        (r) => r.method === 'PUT' && /^\/repositories\/acme\/human\/pullrequests\/9\/comments\/\d+$/.test(r.path),
      ),
    ).to.equal(true);
    // The token is in no log line and no job record.
    expect(JSON.stringify(f.server.logs)).not.to.contain(TOKEN);
    expect(await (await f.server.request('/jobs?limit=100')).text()).not.to.contain(TOKEN);
  });

  it('records a refused token (401) as ERR_FORGE_AUTH at once, and the job still completes', async () => {
    // A proxy in front of the forge can echo the request's headers: whole, and cut at 200 characters.
    f.forge.script('POST', /\/statuses\/build$/, [
      { status: 401, body: { type: 'error', error: { message: `Token is invalid: Bearer ${TOKEN}` } } },
      { status: 401, body: { type: 'error', error: { message: `${'.'.repeat(140)} Bearer ${TOKEN}` } } },
    ]);
    const id = await send('repo:push', bitbucketPushPayload(webLink(f.git), f.git.hashes[7]!, f.git.hashes[9]!));
    const job = await waitForReports<JobBody>(f.server, id, 2);
    expect(job.status).to.equal('completed');
    expect(job.reports!.map((r) => [r.state, r.ok, r.error_code])).to.deep.equal([
      ['INPROGRESS', false, 'ERR_FORGE_AUTH'],
      ['SUCCESSFUL', false, 'ERR_FORGE_AUTH'],
    ]);
    const record = await (await f.server.request(`/jobs/${id}`)).text();
    for (const text of [record, JSON.stringify(f.server.logs)]) expect(text).not.to.contain('test0t');
  });
});

describe('server: Bitbucket build statuses need the server\u2019s public address', function () {
  this.timeout(90_000);
  const f = forgeServer('bitbucket-nourl', startFakeBitbucket, (bitbucket) => ({
    forges: { bitbucket: { api_url: bitbucket.apiUrl } },
    env: { CADENCE_BITBUCKET_TOKEN: 'bitbucket-token-0123456789' },
    publicUrl: null,
  }));

  it('posts no status without f.server.public_url and records why on the job', async () => {
    const body = JSON.stringify(bitbucketPushPayload(webLink(f.git), f.git.hashes[7]!, f.git.hashes[9]!));
    const { body: answer } = await f.server.json<Answer>('/webhooks/bitbucket', {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-event-key': 'repo:push',
        'x-request-uuid': '{no-public-url}',
        'x-hub-signature': sign(body),
      },
      body,
    });
    const job = await waitForReports<JobBody>(f.server, answer.id!, 2);
    expect(job.status).to.equal('completed');
    expect(job.reports!.every((r) => !r.ok && /server\.public_url/.test(r.reason ?? ''))).to.equal(true);
    expect(f.forge.requests.filter((r) => r.path.includes('/statuses/'))).to.have.length(0);
  });
});
