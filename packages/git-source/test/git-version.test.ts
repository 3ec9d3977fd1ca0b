import { expect } from 'chai';
import { atLeast, HTTP_PINNING_SINCE, installedGitVersion, parseGitVersion } from '../src/index.js';

describe('git version', () => {
  it('reads the version line of every git distribution', () => {
    expect(parseGitVersion('git version 2.39.5\n')).to.deep.equal([2, 39, 5]);
    expect(parseGitVersion('git version 2.37.0.windows.1')).to.deep.equal([2, 37, 0]);
    expect(parseGitVersion('git version 2.39.3 (Apple Git-146)')).to.deep.equal([2, 39, 3]);
    expect(parseGitVersion('git version 3.0')).to.deep.equal([3, 0, 0]);
    expect(parseGitVersion('not git')).to.equal(null);
  });

  it('pins http(s) clones only from git 2.37 on', () => {
    expect(atLeast([2, 36, 9], HTTP_PINNING_SINCE)).to.equal(false);
    expect(atLeast([1, 99, 0], HTTP_PINNING_SINCE)).to.equal(false);
    expect(atLeast([2, 37, 0], HTTP_PINNING_SINCE)).to.equal(true);
    expect(atLeast([2, 40, 1], HTTP_PINNING_SINCE)).to.equal(true);
    expect(atLeast([3, 0, 0], HTTP_PINNING_SINCE)).to.equal(true);
  });

  it('asks the installed git once', async () => {
    const first = installedGitVersion();
    expect(installedGitVersion()).to.equal(first);
    const version = await first;
    expect(version).to.have.length(3);
  });
});
