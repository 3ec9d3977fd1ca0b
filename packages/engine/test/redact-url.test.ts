import { expect } from 'chai';
import { redactUrl } from '../src/index.js';

describe('redactUrl', () => {
  it('removes user and password from a URL', () => {
    expect(redactUrl('https://x-access-token:ghp_secret@github.com/acme/repo.git')).to.equal(
      'https://github.com/acme/repo.git',
    );
    expect(redactUrl('http://reader@example.test:8080/page')).to.equal('http://example.test:8080/page');
  });

  it('leaves a URL without credentials exactly as given, and anything that is not a URL', () => {
    for (const input of [
      'https://Example.COM',
      'https://example.test/a?x=1@2',
      'git@github.com:acme/repo.git',
      '/srv/repos/acme',
      'not a url @ all',
    ]) {
      expect(redactUrl(input), input).to.equal(input);
    }
  });
});
