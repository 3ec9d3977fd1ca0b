import { expect } from 'chai';
import { startFakeGithub, type FakeForge } from '@cadence-detect/test-support';
import { githubCredentials } from '../src/index.js';
import { githubSquash } from '../src/squash.js';

const SHA = 'a'.repeat(40);
const HEAD = 'b'.repeat(40);
const PULLS = new RegExp(`^/repos/acme/app/commits/${SHA}/pulls`);
const OPTIONS = {
  token: null,
  app_id: null,
  private_key: null,
  private_key_path: null,
  api_url: 'https://api.github.com',
  fail_on: 'never',
  request_drafts: false,
} as const;

/** The one GitHub client (Octokit with its retry and throttling plugins) as the squash look-up uses it, against a GitHub API on 127.0.0.1. */
describe('GitHub client: the squash look-up', function () {
  this.timeout(30_000);
  let github: FakeForge;
  before(async () => {
    github = await startFakeGithub();
  });
  after(() => github.close());

  const credentials = () => githubCredentials({ ...OPTIONS, token: 'ghp_test', api_url: `${github.apiUrl}/` })!;
  const target = { forge: 'github', repository: 'acme/app', sha: SHA } as const;
  const asked = () => github.requests.filter((r) => PULLS.test(r.path)).length;
  const merged = { number: 21, merged_at: '2026-11-01T00:00:00Z', merge_commit_sha: SHA, head: { sha: HEAD } };

  it('decides once whether GitHub is configured: a token, or an App id with its key', () => {
    expect(githubCredentials(OPTIONS)).to.equal(null);
    expect(githubCredentials({ ...OPTIONS, app_id: 7 })).to.equal(null);
    expect(githubCredentials({ ...OPTIONS, app_id: 7, private_key: 'PEM' })).to.deep.equal({
      apiUrl: 'https://api.github.com',
      token: null,
      app: { appId: 7, privateKey: 'PEM' },
    });
    expect(githubCredentials({ ...OPTIONS, token: 't', api_url: 'https://ghe.example/api/v3/' })).to.deep.equal({
      apiUrl: 'https://ghe.example/api/v3',
      token: 't',
      app: null,
    });
  });

  it('finds the merged pull request whose merge commit the push is, asking again after a 5xx', async () => {
    github.script('GET', PULLS, [
      { status: 502, body: { message: 'Bad Gateway' } },
      { status: 200, body: [{ number: 20, merged_at: null, merge_commit_sha: null, head: { sha: HEAD } }, merged] },
    ]);
    const before = asked();
    expect(await githubSquash(credentials(), target, AbortSignal.timeout(10_000))).to.deep.equal({
      number: 21,
      ref: 'refs/pull/21/head',
      head: HEAD,
    });
    expect(asked() - before).to.equal(2);
  });

  it('does not ask again after a rate limit or an answer that will not change: the push is judged as it is at once', async () => {
    for (const answer of [
      { status: 429, headers: { 'retry-after': '1' }, body: { message: 'API rate limit exceeded' } },
      { status: 404, body: { message: 'Not Found' } },
    ]) {
      github.script('GET', PULLS, [answer, { status: 200, body: [merged] }]);
      const before = asked();
      const failed = await githubSquash(credentials(), target, AbortSignal.timeout(10_000)).then(
        () => null,
        (error: unknown) => error as { status?: number },
      );
      expect(failed?.status).to.equal(answer.status);
      expect(asked() - before).to.equal(1);
      await githubSquash(credentials(), target, AbortSignal.timeout(10_000));
    }
  });

  it('answers null without credentials it can use for the push (an App, and a push from no installation)', async () => {
    const appOnly = githubCredentials({ ...OPTIONS, app_id: 7, private_key: 'PEM', api_url: github.apiUrl })!;
    expect(await githubSquash(appOnly, target, AbortSignal.timeout(10_000))).to.equal(null);
  });
});
