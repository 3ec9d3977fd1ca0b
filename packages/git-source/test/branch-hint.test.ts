import { expect } from 'chai';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { CadenceError } from '@cadence-detect/errors';
import { createRepository, makeTempDir, runGit, type TempDir } from '@cadence-detect/test-support';
import { openRepository, parseRepositoryUrl } from '../src/index.js';

describe('a branch that does not exist, in a local repository', () => {
  let work: TempDir;
  let dir: string;
  before(async () => {
    work = await makeTempDir('cadence-branch-hint-');
    dir = path.join(work.path, 'repo');
    await mkdir(dir);
    await createRepository(dir, [{ message: 'First', date: Date.UTC(2024, 0, 1) / 1000, addLines: 3 }]);
    await runGit(dir, ['branch', 'release-2024']);
  });
  after(() => work.remove());

  async function failure(branch: string): Promise<CadenceError> {
    const error = await openRepository(parseRepositoryUrl(dir, { allowLocalPaths: true }), {
      branch,
      policy: null,
      timeoutMs: 10_000,
      maxSizeBytes: 1 << 30,
    }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).to.be.instanceOf(CadenceError);
    return error as CadenceError;
  }

  it('names the branches there are, and the one it most likely meant', async () => {
    const mistyped = await failure('mian');
    expect(mistyped.code).to.equal('ERR_BRANCH_NOT_FOUND');
    expect(mistyped.message).to.equal('Branch not found: mian (did you mean main? branches: main, release-2024)');
    expect((await failure('feature/x')).message).to.equal('Branch not found: feature/x (branches: main, release-2024)');
  });
});
