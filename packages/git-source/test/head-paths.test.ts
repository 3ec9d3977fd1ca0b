import { expect } from 'chai';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { CadenceError } from '@cadence-detect/errors';
import { createRepository, makeTempDir, type FixtureRepository, type TempDir } from '@cadence-detect/test-support';
import { readHeadPaths } from '../src/index.js';

const T0 = Date.UTC(2023, 4, 2, 9) / 1000;

describe('readHeadPaths (the files at the analysed head)', () => {
  let work: TempDir;
  let repo: FixtureRepository;

  before(async () => {
    work = await makeTempDir('cadence-head-paths-');
    const dir = path.join(work.path, 'repo');
    await mkdir(dir);
    repo = await createRepository(dir, [
      {
        message: 'Add files',
        date: T0,
        files: { 'src/a.ts': 'a\n', 'src/gone.ts': 'g\n', 'docs/naïve\nname.md': 'n\n', 'x\ty.txt': 't\n' },
      },
      { message: 'Remove one', date: T0 + 3600, files: { 'src/gone.ts': null } },
    ]);
  });
  after(() => work.remove());

  it('lists every file at the revision, verbatim (newlines, tabs, non-ASCII), and not the ones deleted before it', async () => {
    const head = await readHeadPaths(repo.dir, repo.hashes[1]!);
    expect(head && [...head].sort()).to.deep.equal(['docs/naïve\nname.md', 'src/a.ts', 'x\ty.txt']);
    const first = await readHeadPaths(repo.dir, repo.hashes[0]!);
    expect(first?.has('src/gone.ts')).to.equal(true);
  });

  it('answers null, never throwing, for a revision git does not know and a tree above the cap', async () => {
    expect(await readHeadPaths(repo.dir, 'f'.repeat(40))).to.equal(null);
    expect(await readHeadPaths(repo.dir, repo.hashes[1]!, { maxPaths: 2 })).to.equal(null);
    expect((await readHeadPaths(repo.dir, repo.hashes[1]!, { maxPaths: 3 }))?.size).to.equal(3);
  });

  it('rejects when the analysis is cancelled', async () => {
    const controller = new AbortController();
    controller.abort();
    const error = await readHeadPaths(repo.dir, repo.hashes[1]!, { signal: controller.signal }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).to.be.instanceOf(CadenceError);
    expect((error as CadenceError).code).to.equal('ERR_CANCELLED');
  });
});
