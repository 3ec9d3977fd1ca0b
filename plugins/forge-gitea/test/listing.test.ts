import { expect } from 'chai';
import { startFakeGitea, type FakeGitea } from '@cadence-detect/test-support';
import gitea from '../src/index.js';

describe('gitea: an organization\u2019s repositories for cadence scan', () => {
  let fake: FakeGitea;
  before(async () => {
    fake = await startFakeGitea(120);
  });
  after(() => fake.close());

  const list = (owner: string, options: Record<string, unknown> = { token: 'gitea-token', api_url: fake.apiUrl }) =>
    gitea.forge!.listRepositories!(
      {
        options: {
          git_hosts: [],
          pull_request_comment: false,
          fail_on: 'never',
          request_drafts: false,
          ...options,
        } as never,
        logger: { debug() {}, info() {}, warn() {}, error() {} },
      },
      owner,
      AbortSignal.timeout(10_000),
    );

  it('lists every page of an organization, with its archived, forked and private flags', async () => {
    const repos = await list('acme');
    expect(repos).to.have.length(120);
    expect(fake.requests.filter((r) => r.path.startsWith('/orgs/acme/repos')).map((r) => r.path)).to.deep.equal([
      '/orgs/acme/repos?limit=50&page=1',
      '/orgs/acme/repos?limit=50&page=2',
      '/orgs/acme/repos?limit=50&page=3',
    ]);
    expect(repos[9]).to.deep.equal({
      repository: 'acme/repo-10',
      cloneUrl: 'https://gitea.example.test/acme/repo-10.git',
      archived: true,
      fork: false,
      private: false,
    });
    expect(String(fake.requests[0]!.headers.authorization)).to.equal('token gitea-token');
  });

  it('falls back to a user\u2019s repositories, and refuses a hostile owner or a missing token before any request', async () => {
    expect(await list('ada')).to.have.length(120);
    const before = fake.requests.length;
    for (const owner of ['../etc', 'a/b', '-x'])
      await list(owner).then(
        () => expect.fail(`listed ${owner}`),
        (error: { code: string }) => expect(error.code).to.equal('ERR_INVALID_SOURCE'),
      );
    await list('acme', { token: null, api_url: fake.apiUrl }).then(
      () => expect.fail('listed without a token'),
      (error: { code: string }) => expect(error.code).to.equal('ERR_FORGE_AUTH'),
    );
    expect(fake.requests.length).to.equal(before);
  });
});
