import { expect } from 'chai';
import { createHmac } from 'node:crypto';
import path from 'node:path';
import {
  makeTempDir,
  startCadenceServer,
  waitForJob,
  type ServerProcess,
  type TempDir,
} from '@cadence-detect/test-support';
import { SECRET, serveRepositories, type GitFixtures } from './fixtures.js';

interface Answer {
  id?: string;
  job_id?: string;
  duplicate?: boolean;
  ignored?: boolean;
  error?: string;
  message?: string;
}
interface JobBody {
  status: string;
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
  let work: TempDir;
  let git: GitFixtures;
  let server: ServerProcess;
  let delivery = 0;

  before(async () => {
    work = await makeTempDir('cadence-forge-gitea-');
    git = await serveRepositories(work.path);
    server = await startCadenceServer({ cwd: work.path, config: { security: { allowed_networks: ['127.0.0.0/8'] } } });
  });
  after(async () => {
    await server?.stop();
    await git?.close();
    await work?.remove();
  });

  const post = (body: string, headers: Record<string, string>) =>
    server.json<Answer>('/webhooks/gitea', {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body,
    });
  const pushBody = (before: number, after: number) =>
    JSON.stringify(giteaPushPayload(git.daemon.url('acme/human.git'), git.hashes[before]!, git.hashes[after]!));

  it('takes a push signed in X-Gitea-Signature: 202 with the job, which reads the pushed range', async () => {
    const body = pushBody(6, 9);
    const { status, body: answer } = await post(body, {
      'x-gitea-event': 'push',
      'x-gitea-delivery': `gitea-${++delivery}`,
      'x-gitea-signature': sign(body),
    });
    expect(status, JSON.stringify(answer)).to.equal(202);
    const job = await waitForJob<JobBody>(server, answer.id!);
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
    const { status, body } = await server.json<Answer>('/webhooks/gitea', {
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
    const repo = git.human;
    await repo.git(['checkout', '-q', '-b', 'feature-7', git.hashes[6]!]);
    const first = await repo.commit({ message: 'Add the parser', date: 1_700_000_000, addLines: 12 });
    await repo.git(['push', '-q', path.join(git.served, 'acme/human.git'), 'feature-7:refs/pull/7/head']);
    const cloneUrl = git.daemon.url('acme/human.git');
    const opened = JSON.stringify(giteaPullRequestPayload('opened', cloneUrl, 7, first, git.hashes[9]!));
    const answer = await post(opened, {
      'x-gitea-event': 'pull_request',
      'x-gitea-delivery': `gitea-${++delivery}`,
      'x-gitea-signature': sign(opened),
    });
    expect(answer.status, JSON.stringify(answer.body)).to.equal(202);
    const job = await waitForJob<JobBody>(server, answer.body.id!);
    expect(job.status).to.equal('completed');
    expect(job.result!.total_commits).to.equal(1);

    const second = await repo.commit({ message: 'Test the parser', date: 1_700_000_600, addLines: 8 });
    await repo.git(['push', '-q', '-f', path.join(git.served, 'acme/human.git'), 'feature-7:refs/pull/7/head']);
    await repo.git(['checkout', '-q', 'main']);
    const synchronized = JSON.stringify(giteaPullRequestPayload('synchronized', cloneUrl, 7, second, git.hashes[9]!));
    const updated = await post(synchronized, {
      'x-gitea-event': 'pull_request',
      'x-gitea-delivery': `gitea-${++delivery}`,
      'x-gitea-signature': sign(synchronized),
    });
    expect(updated.status, JSON.stringify(updated.body)).to.equal(202);
    const again = await waitForJob<JobBody>(server, updated.body.id!);
    expect(again.status).to.equal('completed');
    expect(again.result!.total_commits).to.equal(2);

    const closed = JSON.stringify({ ...giteaPullRequestPayload('closed', cloneUrl, 7, second, git.hashes[9]!) });
    const ignored = await post(closed, {
      'x-gitea-event': 'pull_request',
      'x-gitea-delivery': `gitea-${++delivery}`,
      'x-gitea-signature': sign(closed),
    });
    expect(ignored.status).to.equal(200);
    expect(ignored.body.ignored).to.equal(true);
  });
});
