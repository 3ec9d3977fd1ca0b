import { expect } from 'chai';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { createRepository, makeTempDir, type TempDir } from '@cadence-detect/test-support';
import { ignoringBlankChanges } from '../src/blank-changes.js';
import { lineHash } from '../src/ledger-texts.js';
import { LINE_DIFF_ARGS, streamCommitDiffs, type FileDiff } from '../src/line-replay.js';

const DAY = 86_400;
const T0 = Date.UTC(2025, 4, 5, 9) / 1000;

/** Every file diff of `git log -p` with or without `-w`, by commit and path, with the lines' texts. */
async function diffsOf(dir: string, withW: boolean): Promise<Map<string, FileDiff>> {
  const args = LINE_DIFF_ARGS.filter((arg) => withW || arg !== '-w');
  const found = new Map<string, FileDiff>();
  let commit = '';
  await streamCommitDiffs(dir, ['log', '--reverse', ...args, 'HEAD'], {
    content: true,
    commit: (hash) => {
      commit = hash;
    },
    file: (diff) => {
      found.set(`${commit} ${diff.newPath ?? diff.oldPath}`, diff);
    },
  });
  return found;
}

/** What a diff says about lines: its hunks and the texts they remove and add. */
const lineChanges = (diff: FileDiff | undefined) => ({
  hunks: diff?.hunks ?? [],
  removed: diff?.removed ?? [],
  added: diff?.added ?? [],
});

/** `a.txt` with line `at` changed from `before` to `after`. */
const oneLineChanged = (at: number, before: string, after: string): FileDiff => ({
  oldPath: 'a.txt',
  newPath: 'a.txt',
  renameFrom: null,
  renameTo: null,
  binary: false,
  hunks: [[at, 1, at, 1]],
  removed: [before],
  added: [after],
});

describe('git-source: a diff read without -w, taken as -w takes it (blank-changes.ts)', function () {
  this.timeout(30_000);
  let work: TempDir;
  before(async () => {
    work = await makeTempDir('cadence-blank-changes-');
  });
  after(() => work.remove());

  it('re-indented blocks, tabs for spaces, trailing blanks and carriage returns: the same hunks and texts as git log -w', async () => {
    const dir = path.join(work.path, 'blanks');
    await mkdir(dir);
    const repo = await createRepository(dir);
    const body = Array.from({ length: 30 }, (_, i) => `value_${i} = compute(${i}, "x")`);
    const versions: string[][] = [
      ['def main():', ...body.map((line) => `    ${line}`), 'main()'],
      // Re-indented as a whole: -w sees nothing.
      ['def main():', ...body.map((line) => `        ${line}`), 'main()'],
      // Re-indented again, with a line changed and one added in the middle of the block.
      [
        'def main():',
        ...body.slice(0, 10).map((line) => `\t${line}`),
        '\tchanged_line = 1',
        ...body.slice(11, 20).map((line) => `\t${line}`),
        '\tinserted = 2',
        ...body.slice(20).map((line) => `\t${line}`),
        'main()',
      ],
      // Blanks inside lines, at their ends, carriage returns; one line deleted.
      [
        'def  main( ):  ',
        ...body.slice(0, 10).map((line) => `\t${line.replace(' = ', '=')}\r`),
        '\tchanged_line = 1',
        ...body.slice(12, 20).map((line) => `\t${line}   `),
        '\tinserted = 2',
        ...body.slice(20).map((line) => `\t${line}`),
        'main()',
      ],
    ];
    for (const [i, lines] of versions.entries())
      await repo.commit({ message: `v${i}`, date: T0 + i * DAY, files: { 'f.py': `${lines.join('\n')}\n` } });
    const [withW, withoutW] = await Promise.all([diffsOf(repo.dir, true), diffsOf(repo.dir, false)]);
    expect(withoutW.size).to.equal(versions.length);
    let split = 0;
    for (const [key, plain] of withoutW) {
      const taken = ignoringBlankChanges(plain);
      expect(lineChanges(taken), key).to.deep.equal(lineChanges(withW.get(key)));
      if (taken !== plain) split++;
    }
    // The reads differ (the plain one holds the blank changes), so the comparison above means something.
    const [, second] = [...withoutW.values()];
    expect(second!.hunks.reduce((sum, [, b]) => sum + b, 0)).to.equal(30);
    expect(ignoringBlankChanges(second!).hunks).to.deep.equal([]);
    // Three of the four versions hold blank-only changes the pairing took out.
    expect(split).to.equal(3);
  });

  it('keeps a diff with no blank-only pair as it is (the same object), and a binary file untouched', () => {
    const diff = oneLineChanged(2, 'old text', 'new text');
    expect(ignoringBlankChanges(diff)).to.equal(diff);
    const binary: FileDiff = { ...diff, binary: true, hunks: [], removed: [], added: [] };
    expect(ignoringBlankChanges(binary)).to.equal(binary);
  });

  it('never pairs two different lines whose hashes meet: the texts decide', () => {
    // Two lines with the same 32-bit hash (lineHash), found by a birthday search over numbered lines.
    const seen = new Map<number, string>();
    let pair: [string, string] | null = null;
    for (let i = 0; !pair; i++) {
      const text = `line ${i}`;
      const hash = lineHash(text);
      const other = seen.get(hash);
      if (other !== undefined) pair = [other, text];
      else seen.set(hash, text);
    }
    const diff = oneLineChanged(3, pair[0], pair[1]);
    expect(lineHash(pair[0])).to.equal(lineHash(pair[1]));
    expect(ignoringBlankChanges(diff).hunks).to.deep.equal([[3, 1, 3, 1]]);
    // The same lines but for blanks are paired: the hunk is gone.
    expect(ignoringBlankChanges({ ...diff, added: [`  ${pair[0]}\t`] }).hunks).to.deep.equal([]);
  });
});
