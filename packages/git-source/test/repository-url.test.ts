import { expect } from 'chai';
import { parseRepositoryUrl } from '../src/index.js';

const remote = { allowLocalPaths: false };

describe('parseRepositoryUrl', () => {
  it('accepts https, http, ssh, git and scp-style URLs and names owner/repo', () => {
    expect(parseRepositoryUrl('https://github.com/acme/widget', remote)).to.include({
      kind: 'remote',
      scheme: 'https',
      host: 'github.com',
      port: 443,
      repo: 'acme/widget',
    });
    expect(parseRepositoryUrl('http://127.0.0.2:8080/group/sub/proj.git', remote)).to.include({
      scheme: 'http',
      port: 8080,
      repo: 'group/sub/proj',
    });
    expect(parseRepositoryUrl('ssh://git@example.com:2222/acme/widget.git', remote)).to.include({
      scheme: 'ssh',
      port: 2222,
      repo: 'acme/widget',
    });
    expect(parseRepositoryUrl('git://127.0.0.1:9418/acme/widget', remote)).to.include({
      scheme: 'git',
      repo: 'acme/widget',
    });
    expect(parseRepositoryUrl('git@github.com:acme/widget.git', remote)).to.include({
      scheme: 'scp',
      host: 'github.com',
      repo: 'acme/widget',
    });
  });

  for (const hostile of [
    'ext::sh -c touch% /tmp/pwned',
    'ext::sh',
    'fd::17',
    '-uhack',
    '--upload-pack=touch /tmp/x',
    'ssh://-oProxyCommand=touch%20x/acme/widget',
    'git@-oProxyCommand=x:acme/widget',
    'https://github.com/acme/widget --upload-pack=x',
    'https://github.com/acme/wid\nget',
    'ftp://example.com/acme/widget',
    'javascript:alert(1)',
    'file:///etc',
    '/etc/passwd',
    './relative/path',
    '',
  ]) {
    it(`refuses ${JSON.stringify(hostile)} with ERR_INVALID_SOURCE`, () => {
      expect(() => parseRepositoryUrl(hostile, remote))
        .to.throw()
        .with.property('code', 'ERR_INVALID_SOURCE');
    });
  }

  it("hands git a URL serialized from the checked parts, never the caller's string", () => {
    expect(parseRepositoryUrl('HTTPS://GitHub.COM/acme/widget', remote)).to.include({
      url: 'https://github.com/acme/widget',
      host: 'github.com',
      explicitPort: false,
    });
    expect(parseRepositoryUrl('https://x-access-token:ghs_abc123@github.com/acme/widget.git', remote)).to.include({
      url: 'https://x-access-token:ghs_abc123@github.com/acme/widget.git',
      user: 'x-access-token',
      password: 'ghs_abc123',
    });
    expect(parseRepositoryUrl('ssh://git@[2001:db8::1]:2222/acme/widget.git', remote)).to.include({
      host: '2001:db8::1',
      port: 2222,
      url: 'ssh://git@[2001:db8::1]:2222/acme/widget.git',
    });
    expect(parseRepositoryUrl('git@GitHub.com:acme/widget.git', remote)).to.include({
      url: 'git@github.com:acme/widget.git',
      port: null,
    });
  });

  for (const [ambiguous, why] of [
    ['http://8.8.8.8\\@127.0.0.1:39001/r.git', 'backslash'],
    ['git://127.0.0.1:39006%2F@8.8.8.8/r.git', 'percent-encoded user part'],
    ['ssh://127.0.0.1:2222%2F@8.8.8.8/x.git', 'percent-encoded user part'],
    ['git://user@example.com/r.git', 'user part on git://'],
    ['git://user:secret@example.com/r.git', 'credentials on git://'],
    ['ssh://%2Dohost/x.git', 'a host that decodes to "-…"'],
    ['ssh://-oProxyCommand=x/x.git', 'a host that starts with "-"'],
    ['https://a@b@example.com/r.git', 'two "@"'],
    ['https://exämple.com/r.git', 'non-ASCII host'],
    ['https://2130706433/r.git', 'an integer IPv4 address'],
    ['https://0x7f.0.0.1/r.git', 'a hex IPv4 address'],
    ['https://0177.0.0.1/r.git', 'an octal IPv4 address'],
    ['https://127.1/r.git', 'a short IPv4 address'],
    ['https://[fe80::1%25eth0]/r.git', 'an IPv6 zone id'],
    ['https://example.com:0/r.git', 'port 0'],
    ['https://example.com:99999/r.git', 'a port above 65535'],
    ['https://example.com:/r.git', 'an empty port'],
    ['https://example.com/r.git?x=1', 'a query'],
    ['https://example.com/r.git#frag', 'a fragment'],
    ['https://example.com/r%2Egit', 'percent-encoding in the path'],
    ['https://example.com/a@127.0.0.1/r.git', '"@" in the path'],
    ['https://example.com', 'no path'],
    ['https://ex_ample.com/r.git', 'an underscore in the host'],
    ['git@host:-oProxyCommand=x', 'an scp path that starts with "-"'],
    ['-oProxyCommand=x@host:x', 'an scp user that starts with "-"'],
  ] as const) {
    it(`refuses ${why}: ${JSON.stringify(ambiguous)}`, () => {
      expect(() => parseRepositoryUrl(ambiguous, remote))
        .to.throw()
        .with.property('code', 'ERR_INVALID_SOURCE');
    });
  }

  it('keeps credentials out of the refusal message', () => {
    expect(() => parseRepositoryUrl('https://user:hunter2hunter2@exa mple.com/r.git', remote))
      .to.throw()
      .that.satisfies((error: Error) => !error.message.includes('hunter2'));
  });

  it('accepts local paths and file:// only when allowed, and a missing path fails to open', () => {
    expect(parseRepositoryUrl(process.cwd(), { allowLocalPaths: true })).to.include({
      kind: 'local',
      path: process.cwd(),
    });
    expect(parseRepositoryUrl(`file://${process.cwd()}`, { allowLocalPaths: true })).to.include({ kind: 'local' });
    expect(() => parseRepositoryUrl('/definitely/not/here', { allowLocalPaths: true }))
      .to.throw()
      .with.property('code', 'ERR_PATH_NOT_FOUND');
  });
});

describe('request refs', () => {
  it('accepts only a pull or merge request head', async () => {
    const { REQUEST_REF } = await import('../src/index.js');
    expect(REQUEST_REF.test('refs/pull/12/head')).to.equal(true);
    expect(REQUEST_REF.test('refs/merge-requests/4/head')).to.equal(true);
    for (const hostile of [
      '--upload-pack=x',
      'refs/pull/0/head',
      'refs/pull/12/merge',
      'refs/heads/main',
      'refs/pull/12/head:refs/heads/main',
      '+refs/pull/1/head',
      'refs/pull/1/head\n--x',
      'refs/pull/-1/head',
      'refs/pull/12345678901/head',
    ]) {
      expect(REQUEST_REF.test(hostile), hostile).to.equal(false);
    }
  });

  it('refuses any other ref, and a head prefix without a ref, before git runs (ERR_INVALID_SOURCE)', async () => {
    const { openRepository } = await import('../src/index.js');
    const locator = parseRepositoryUrl('https://github.com/acme/widget', remote);
    const open = (fetchCommit: string, fetchRef?: string) =>
      openRepository(locator, {
        timeoutMs: 1000,
        maxSizeBytes: 1,
        policy: null,
        fetchCommit,
        ...(fetchRef === undefined ? {} : { fetchRef }),
      }).then(
        () => null,
        (error: { code?: string }) => error.code,
      );
    for (const hostile of [
      '--upload-pack=touch /tmp/x',
      'refs/heads/--upload-pack=x',
      'refs/heads/a..b',
      'refs/heads/main:refs/heads/x',
      'refs/heads/*',
      'refs/heads/',
      'refs/tags/v1',
    ])
      expect(await open('a'.repeat(40), hostile), hostile).to.equal('ERR_INVALID_SOURCE');
    // A 12-character head only with the ref that holds it (Bitbucket's requests); never an option or too short.
    expect(await open('abcdef012345')).to.equal('ERR_INVALID_SOURCE');
    expect(await open('abcdef01', 'refs/heads/feature')).to.equal('ERR_INVALID_SOURCE');
    expect(await open('-abcdef012345', 'refs/heads/feature')).to.equal('ERR_INVALID_SOURCE');
  });
});
