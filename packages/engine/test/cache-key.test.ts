import { expect } from 'chai';
import { repositoryCacheKey } from '../src/cache-key.js';

describe('engine: the result cache key', () => {
  const info = {
    url: 'https://example.test/o/r.git',
    repo: 'o/r',
    branch: 'main',
    headCommit: 'a'.repeat(40),
    range: null,
    shallow: false,
  };
  const request = { kind: 'repository' as const, url: info.url };

  it('tells an analysis without lines from one with them: a --no-lines result never answers the default', () => {
    const withLines = repositoryCacheKey(request, info, 'f');
    expect(repositoryCacheKey({ ...request, lines: false }, info, 'f')).to.not.equal(withLines);
    expect(repositoryCacheKey({ ...request, lines: true }, info, 'f')).to.equal(withLines);
    expect(repositoryCacheKey(request, info, 'g')).to.not.equal(withLines);
  });
});
