import { expect } from 'chai';
import { excludeMatcher } from '../src/exclude-matcher.js';

describe('excludeMatcher', () => {
  const cases: [string, boolean][] = [
    ['package-lock.json', true],
    ['web/package-lock.json', true],
    ['dist/app.min.js', true],
    ['vendor/lib/a.go', true],
    ['src/vendor/a.go', false],
    ['src/app.js', false],
    ['.github/workflows/ci.yml', false],
  ];

  it('matches names anywhere and slashed patterns from the root, the same on every asking', () => {
    const isExcluded = excludeMatcher(['package-lock.json', '*.min.js', 'vendor/**']);
    // Asked twice over: the second round answers from the matcher's kept answers.
    for (let round = 0; round < 2; round++)
      for (const [path, excluded] of cases) expect(isExcluded(path), `${path} (round ${round + 1})`).to.equal(excluded);
  });

  it('keeps its answers to itself: another matcher over the same paths answers by its own globs', () => {
    const minified = excludeMatcher(['*.min.js']);
    const vendored = excludeMatcher(['vendor/**']);
    expect(minified('dist/app.min.js')).to.equal(true);
    expect(vendored('dist/app.min.js')).to.equal(false);
    expect(vendored('vendor/lib/a.go')).to.equal(true);
    expect(minified('vendor/lib/a.go')).to.equal(false);
  });

  it('excludes nothing without globs', () => {
    expect(excludeMatcher([])('package-lock.json')).to.equal(false);
  });
});
