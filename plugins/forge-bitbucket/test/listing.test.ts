import { expect } from 'chai';
import { startFakeBitbucket, type FakeBitbucket } from '@cadence-detect/test-support';
import bitbucket from '../src/index.js';

describe('bitbucket: a workspace\u2019s repositories for cadence scan', () => {
  let fake: FakeBitbucket;
  before(async () => {
    fake = await startFakeBitbucket(250);
  });
  after(() => fake.close());

  const list = (workspace: string, options: Record<string, unknown> = {}) =>
    bitbucket.forge!.listRepositories!(
      {
        options: {
          token: 'bitbucket-token',
          email: null,
          api_url: fake.apiUrl,
          git_hosts: [],
          pull_request_comment: false,
          fail_on: 'never',
          request_drafts: false,
          ...options,
        } as never,
        logger: { debug() {}, info() {}, warn() {}, error() {} },
      },
      workspace,
      AbortSignal.timeout(10_000),
    );

  it('follows next across pages, with clone URLs from the web links and the fork and private flags', async () => {
    const repos = await list('acme');
    expect(repos).to.have.length(250);
    expect(fake.requests.filter((r) => r.path.startsWith('/repositories/acme')).map((r) => r.path)).to.deep.equal([
      '/repositories/acme?pagelen=100',
      '/repositories/acme?pagelen=100&page=2',
      '/repositories/acme?pagelen=100&page=3',
    ]);
    expect(repos[8]).to.deep.equal({
      repository: 'acme/repo-9',
      cloneUrl: 'https://bitbucket.example.test/acme/repo-9.git',
      archived: false,
      fork: true,
      private: true,
    });
    expect(fake.requests[0]!.headers.authorization).to.equal('Bearer bitbucket-token');
  });

  it('sends an API token as basic credentials with its account\u2019s e-mail', async () => {
    const before = fake.requests.length;
    await list('acme', { email: 'ada@example.test' });
    expect(fake.requests[before]!.headers.authorization).to.equal(
      `Basic ${Buffer.from('ada@example.test:bitbucket-token').toString('base64')}`,
    );
  });

  it('never follows a next link off the API (the token would go with it)', async () => {
    fake.script('GET', /^\/repositories\/acme/, [
      {
        status: 200,
        body: { values: [], next: 'https://attacker.example.test/2.0/repositories/acme?page=2' },
      },
    ]);
    const error = await list('acme').catch((e: unknown) => e as { code: string; message: string });
    expect(error).to.include({ code: 'ERR_FORGE_UNAVAILABLE' });
    expect((error as { message: string }).message).to.contain('not followed');
  });

  it('refuses a hostile workspace or a missing token before any request, and says when the workspace is unknown', async () => {
    const before = fake.requests.length;
    for (const hostile of ['../acme', 'acme/x', '-upload', 'a?b']) {
      const error = await list(hostile).catch((e: unknown) => e as { code: string });
      expect(error, hostile).to.include({ code: 'ERR_INVALID_SOURCE' });
    }
    const noToken = await list('acme', { token: null }).catch((e: unknown) => e as { code: string });
    expect(noToken).to.include({ code: 'ERR_FORGE_AUTH' });
    expect(fake.requests.length).to.equal(before);
    const unknown = await list('nobody').catch((e: unknown) => e as { code: string; message: string });
    expect(unknown).to.include({ code: 'ERR_FORGE_AUTH' });
    expect((unknown as { message: string }).message).to.contain('404');
  });
});
