import { expect } from 'chai';
import { bitbucketPullRequest, bitbucketPush, cloneUrlOf } from '../src/index.js';
import bitbucket from '../src/index.js';

const repository = (href: string, fullName = 'acme/app') => ({ full_name: fullName, links: { html: { href } } });
const HEAD = 'a'.repeat(40);
const OLD = 'b'.repeat(40);

describe('bitbucket payloads', () => {
  it('makes the clone URL from the web link plus .git, with no user name, query or fragment', () => {
    expect(cloneUrlOf(repository('https://ada@bitbucket.org/acme/app'), 'repository')).to.equal(
      'https://bitbucket.org/acme/app.git',
    );
    expect(cloneUrlOf(repository('https://ada:secret@bitbucket.org/acme/app/?x=1#y'), 'repository')).to.equal(
      'https://bitbucket.org/acme/app.git',
    );
    expect(() => cloneUrlOf(repository('not a url'), 'repository')).to.throw(/repository\.links\.html\.href/);
  });

  it('reads the first branch a push moved, a new branch without a before; ignores tags and deleted branches', () => {
    const change = (old: unknown, next: unknown) => ({
      repository: repository('https://bitbucket.org/acme/app'),
      push: { changes: [old === 'skip' ? null : { old, new: next }].filter(Boolean) },
    });
    const branch = (hash: string) => ({ type: 'branch', name: 'main', target: { hash } });
    const moved = bitbucketPush(change(branch(OLD), branch(HEAD)));
    expect(moved).to.deep.include({ kind: 'push' });
    expect(moved.kind === 'push' && moved.push).to.deep.include({
      cloneUrl: 'https://bitbucket.org/acme/app.git',
      branch: 'main',
      before: OLD,
      after: HEAD,
      forge: { forge: 'bitbucket', repository: 'acme/app', sha: HEAD },
    });
    const created = bitbucketPush(change(null, branch(HEAD)));
    expect(created.kind === 'push' && created.push.before).to.equal(null);
    expect(bitbucketPush(change(branch(OLD), null))).to.deep.equal({ kind: 'ignored', reason: 'branch deleted' });
    expect(bitbucketPush(change(null, { type: 'tag', name: 'v1', target: { hash: HEAD } }))).to.deep.equal({
      kind: 'ignored',
      reason: 'tag push',
    });
    expect(() => bitbucketPush(change(branch('--help'), branch(HEAD)))).to.throw(/old\.target\.hash/);
  });

  it('reads a request by its source branch and 12-character head; skips drafts unless asked, and closed requests', () => {
    const request = (extra: Record<string, unknown> = {}) => ({
      repository: repository('https://bitbucket.org/acme/app'),
      pullrequest: {
        id: 12,
        state: 'OPEN',
        draft: false,
        source: {
          branch: { name: 'feature/parser' },
          commit: { hash: 'ABCDEF012345' },
          repository: repository('https://bitbucket.org/ada/app-fork', 'ada/app-fork'),
        },
        destination: { branch: { name: 'main' }, commit: { hash: 'b'.repeat(12) } },
        ...extra,
      },
    });
    const opened = bitbucketPullRequest(request(), { drafts: false });
    expect(opened.kind === 'push' && opened.push).to.deep.equal({
      cloneUrl: 'https://bitbucket.org/ada/app-fork.git',
      repo: 'acme/app',
      branch: 'main',
      before: null,
      after: 'abcdef012345',
      forge: { forge: 'bitbucket', repository: 'acme/app', sha: 'abcdef012345' },
      ref: 'refs/heads/feature/parser',
    });
    expect(bitbucketPullRequest(request({ draft: true }), { drafts: false })).to.deep.equal({
      kind: 'ignored',
      reason: 'draft pull request',
    });
    expect(bitbucketPullRequest(request({ draft: true }), { drafts: true }).kind).to.equal('push');
    expect(bitbucketPullRequest(request({ state: 'DECLINED' }), { drafts: false })).to.deep.equal({
      kind: 'ignored',
      reason: 'pull request declined',
    });
    expect(() => bitbucketPullRequest(request({ id: -1 }), { drafts: false })).to.throw(/pullrequest\.id/);
    for (const hostile of [
      '--upload-pack=touch x',
      'a..b',
      'a b',
      'x:refs/heads/main',
      'feature/',
      '*',
      'x.lock',
      'a@{1}',
    ])
      expect(
        () =>
          bitbucketPullRequest(
            request({
              source: {
                branch: { name: hostile },
                commit: { hash: 'abcdef012345' },
                repository: repository('https://bitbucket.org/acme/app'),
              },
            }),
            { drafts: false },
          ),
        hostile,
      ).to.throw(/pullrequest\.source\.branch\.name/);
  });

  it('sends its token with clones of bitbucket.org only (and git_hosts), as the static user name of its kind', () => {
    const setup = (options: Record<string, unknown>) => ({
      options: {
        token: 'tok',
        email: null,
        api_url: 'https://api.bitbucket.org/2.0',
        git_hosts: [],
        pull_request_comment: false,
        fail_on: 'never',
        request_drafts: false,
        ...options,
      } as never,
      logger: { debug() {}, info() {}, warn() {}, error() {} },
    });
    expect(bitbucket.forge!.gitHosts!(setup({}))).to.deep.equal(['bitbucket.org']);
    expect(bitbucket.forge!.gitHosts!(setup({ git_hosts: ['git.example.test'] }))).to.deep.equal([
      'bitbucket.org',
      'git.example.test',
    ]);
    expect(bitbucket.forge!.gitAuthorization!(setup({}))).to.equal(
      `Authorization: Basic ${Buffer.from('x-token-auth:tok').toString('base64')}`,
    );
    expect(bitbucket.forge!.gitAuthorization!(setup({ email: 'ada@example.test' }))).to.equal(
      `Authorization: Basic ${Buffer.from('x-bitbucket-api-token-auth:tok').toString('base64')}`,
    );
    expect(bitbucket.forge!.gitAuthorization!(setup({ token: null }))).to.equal(null);
  });
});
