import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * A wait for something to happen, written as a timer: `await new Promise((r) => setTimeout(r, n))`
 * (any spelling of the callback) or `await sleep(n)`. Timers that bound a wait, abort a request
 * after a limit or pace a load generator are not waits and do not match.
 */
const FIXED_WAIT = /await\s+new\s+Promise\(\s*\(?\s*(\w+)\s*\)?\s*=>\s*setTimeout\(\s*\1\s*,|await\s+sleep\(/;

function testFiles(): string[] {
  return execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: ROOT,
    encoding: 'utf8',
  })
    .split('\0')
    .filter(
      (f) =>
        f !== 'tests/architecture/test-waits.test.ts' &&
        /\.(?:ts|mts|js|mjs)$/.test(f) &&
        (f.startsWith('tests/') ||
          /^(?:packages|plugins|host|examples)\/[^/]+\/test\//.test(f) ||
          f.startsWith('host/test/')),
    );
}

describe('architecture: tests wait for conditions', () => {
  it('finds the fixed waits it looks for (the check can fail)', () => {
    expect(FIXED_WAIT.test('await new Promise((resolve) => setTimeout(resolve, 200));')).to.equal(true);
    expect(FIXED_WAIT.test('await new Promise((r) => setTimeout(r, 20));')).to.equal(true);
    expect(FIXED_WAIT.test('await sleep(1000);')).to.equal(true);
    expect(FIXED_WAIT.test('const timer = setTimeout(() => child.kill(), 5000);')).to.equal(false);
    expect(FIXED_WAIT.test("await pace(60); // the load's rhythm")).to.equal(false);
  });

  it('has no fixed sleep in any test file: every wait goes through eventually()', () => {
    const sleeping = testFiles().flatMap((file) =>
      readFileSync(path.join(ROOT, file), 'utf8')
        .split('\n')
        .flatMap((line, i) => (FIXED_WAIT.test(line) ? [`${file}:${i + 1}: ${line.trim()}`] : [])),
    );
    expect(sleeping).to.deep.equal([]);
  });
});
