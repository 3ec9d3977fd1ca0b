import { expect } from 'chai';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { createRepository, makeTempDir, type TempDir } from '@cadence-detect/test-support';
import { attributesOf, readHistory, readReworkedLines } from '../src/index.js';

const DAY = 86_400;
const T0 = Date.UTC(2025, 2, 1) / 1000;
const never = (): boolean => false;

describe('git-source: .gitattributes as line counts read them', () => {
  const of = attributesOf(
    new Map([
      [
        '.gitattributes',
        '# comment\n*.gen.ts linguist-generated\n/docs/** linguist-vendored\nvendor/keep/** -linguist-vendored\nassets/*.svg binary\nbuild/ linguist-generated\n',
      ],
      ['sub/.gitattributes', 'local.txt -diff\n'],
    ]),
  );

  it('a name pattern matches at any depth, a slashed one from its file\u2019s folder, later lines win, binary is -diff', () => {
    expect(of('src/api.gen.ts').linguist).to.equal(true);
    expect(of('docs/guide.md').linguist).to.equal(true);
    expect(of('src/docs/guide.md').linguist).to.equal(undefined);
    expect(of('vendor/keep/a.js').linguist).to.equal(false);
    expect(of('assets/logo.svg').noDiff).to.equal(true);
    expect(of('sub/local.txt').noDiff).to.equal(true);
    expect(of('local.txt').noDiff).to.equal(false);
    // A trailing slash names folders, never a file's attributes (as git reads it).
    expect(of('build/out.js').linguist).to.equal(undefined);
  });
});

describe('git-source: rework within 14 days', function () {
  this.timeout(60_000);
  let work: TempDir;
  before(async () => {
    work = await makeTempDir('cadence-rework-');
  });
  after(() => work.remove());

  it('the replay and the blames of a range agree, and a deleted line that reads like a diff header is still a line', async () => {
    const dir = path.join(work.path, 'repo');
    await mkdir(dir);
    const repo = await createRepository(dir, [
      { message: 'one', date: T0, files: { 'a.txt': 'keep\n-- a/fake\n++ b/fake\n@@ -1 +1 @@\nlast\n' } },
      // Two days later the three header-like lines go (rework 3 of the first commit).
      { message: 'two', date: T0 + 2 * DAY, files: { 'a.txt': 'keep\nlast\nnew\n' } },
      // Twenty days after that, "new" goes: 20 days after it was written, not rework.
      { message: 'three', date: T0 + 22 * DAY, files: { 'a.txt': 'keep\nlast\n' } },
    ]);
    const head = repo.hashes.at(-1)!;
    const { commits } = await readHistory(dir, { rev: head, excludeFiles: [] });
    const replayed = await readReworkedLines(dir, commits, { isExcluded: never, replayFrom: head });
    const blamed = await readReworkedLines(dir, commits, { isExcluded: never });
    expect(Object.fromEntries(replayed.lines)).to.deep.equal({ [repo.hashes[0]!]: 3 });
    expect(Object.fromEntries(blamed.lines)).to.deep.equal(Object.fromEntries(replayed.lines));
  });
});
