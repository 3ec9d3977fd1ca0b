import { expect } from 'chai';
import { parseRepositoryUrl } from '../src/index.js';

const remote = { allowLocalPaths: false };

describe('parseRepositoryUrl', () => {
  it('accepts https, http, ssh, git and scp-style URLs and names owner/repo', () => {
    expect(parseRepositoryUrl('https://github.com/acme/widget', remote)).to.include({ kind: 'remote', scheme: 'https', host: 'github.com', port: 443, repo: 'acme/widget' });
    expect(parseRepositoryUrl('http://127.0.0.2:8080/group/sub/proj.git', remote)).to.include({ scheme: 'http', port: 8080, repo: 'group/sub/proj' });
    expect(parseRepositoryUrl('ssh://git@example.com:2222/acme/widget.git', remote)).to.include({ scheme: 'ssh', port: 2222, repo: 'acme/widget' });
    expect(parseRepositoryUrl('git://127.0.0.1:9418/acme/widget', remote)).to.include({ scheme: 'git', repo: 'acme/widget' });
    expect(parseRepositoryUrl('git@github.com:acme/widget.git', remote)).to.include({ scheme: 'scp', host: 'github.com', repo: 'acme/widget' });
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
      expect(() => parseRepositoryUrl(hostile, remote)).to.throw().with.property('code', 'ERR_INVALID_SOURCE');
    });
  }

  it('accepts local paths and file:// only when allowed, and a missing path fails to open', () => {
    expect(parseRepositoryUrl(process.cwd(), { allowLocalPaths: true })).to.include({ kind: 'local', path: process.cwd() });
    expect(parseRepositoryUrl(`file://${process.cwd()}`, { allowLocalPaths: true })).to.include({ kind: 'local' });
    expect(() => parseRepositoryUrl('/definitely/not/here', { allowLocalPaths: true })).to.throw().with.property('code', 'ERR_GIT_CLONE_FAILED');
  });
});
