import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { makeTempDir, type TempDir } from '@cadence-detect/test-support';
import { diffLines, type LinePairs } from '../src/line-diff.js';

/** A small generator of its own, so every run builds the same inputs. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
}

/** Lines drawn from `kinds` texts, the first few far more often (blank lines, braces, decorators). */
function lines(next: () => number, count: number, kinds: number): number[] {
  return Array.from({ length: count }, () => (next() < 0.5 ? Math.floor(next() * 3) : Math.floor(next() * kinds)));
}

/** The matched lines of `git diff --no-index -U0` between two files: what lies between its hunks. */
async function gitPairs(dir: string, old: number[], block: number[]): Promise<LinePairs> {
  const text = (values: number[]): string => values.map((value) => `line ${value}\n`).join('');
  await writeFile(path.join(dir, 'old'), text(old));
  await writeFile(path.join(dir, 'block'), text(block));
  // `git diff --no-index` exits 1 when the files differ.
  const run = spawnSync('git', ['diff', '--no-index', '-U0', '--', 'old', 'block'], { cwd: dir, encoding: 'utf8' });
  expect(run.status, run.stderr).to.be.oneOf([0, 1]);
  const out = run.stdout;
  const pairs: LinePairs = [];
  let a = 0;
  let b = 0;
  for (const hunk of out.matchAll(/^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/gm)) {
    const [oldStart, oldCount, newStart, newCount] = [1, 2, 3, 4].map((k, i) =>
      hunk[k] === undefined ? (i % 2 === 1 ? 1 : 0) : Number(hunk[k]),
    ) as [number, number, number, number];
    const oldFrom = oldCount === 0 ? oldStart : oldStart - 1;
    const newFrom = newCount === 0 ? newStart : newStart - 1;
    while (a < oldFrom) pairs.push([a++, b++]);
    a = oldFrom + oldCount;
    b = newFrom + newCount;
  }
  while (a < old.length) pairs.push([a++, b++]);
  return pairs;
}

describe('git-source: the line diff blame -M lines blocks up with', function () {
  this.timeout(120_000);
  let temp: TempDir;
  before(async () => {
    temp = await makeTempDir('cadence-line-diff-');
  });
  after(async () => {
    await temp.remove();
  });

  it('pairs the lines git diff pairs: small blocks against files full of equal lines', async () => {
    const next = random(11);
    for (let round = 0; round < 40; round++) {
      const old = lines(next, 20 + Math.floor(next() * 300), 40);
      const block = lines(next, 2 + Math.floor(next() * 25), 40);
      expect(diffLines(old, block), `round ${round}`).to.deep.equal(await gitPairs(temp.path, old, block));
    }
  });

  it('stops searching where git does: a large file where the best alignment is not git\u2019s', async () => {
    const next = random(2);
    // Three thousand lines, most of them three texts (blank lines, braces): past git's cost bound.
    const old = Array.from({ length: 3_000 }, () => (next() < 0.6 ? Math.floor(next() * 3) : Math.floor(next() * 200)));
    const at = 1_000 + Math.floor(next() * 1_500);
    // A copy of eight lines of it: an exact alignment matches all eight, git's does not.
    const block = old.slice(at, at + 8);
    const pairs = await gitPairs(temp.path, old, block);
    expect(pairs.length).to.be.below(longestCommon(old, block));
    expect(diffLines(old, block)).to.deep.equal(pairs);
  });
});

/** The length of the longest common subsequence (the exact alignment git's bound gives up). */
function longestCommon(a: readonly number[], b: readonly number[]): number {
  let previous = new Array<number>(b.length + 1).fill(0);
  for (const value of a) {
    const row = [0];
    for (let j = 0; j < b.length; j++)
      row.push(value === b[j] ? previous[j]! + 1 : Math.max(previous[j + 1]!, row[j]!));
    previous = row;
  }
  return previous[b.length]!;
}
