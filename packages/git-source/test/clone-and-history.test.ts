import { expect } from 'chai';
import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  burstHistory,
  createRepository,
  exportRepository,
  freePort,
  humanHistory,
  makeTempDir,
  runGit,
  startGitDaemon,
  type GitDaemon,
  type TempDir,
} from '@cadence-detect/test-support';
import { diffExcerpt, openRepository, parseRepositoryUrl, readHistory } from '../src/index.js';
import { base, loopbackAllowed, strict } from './clone-options.js';

async function cloneDirsNow(): Promise<string[]> {
  return (await readdir(tmpdir())).filter((name) => name.startsWith('cadence-clone-'));
}

describe('git source over git://', function () {
  this.timeout(60_000);
  let work: TempDir;
  let daemon: GitDaemon;
  let humanHashes: string[];
  const sharedTmp = process.env.TMPDIR;

  before(async () => {
    work = await makeTempDir('cadence-git-');
    // Clones of this suite go to a temporary folder of its own: a clone folder another process makes
    // in the shared one must not count as one this suite left behind.
    const { mkdir: makeDir } = await import('node:fs/promises');
    await makeDir(path.join(work.path, 'tmp'));
    process.env.TMPDIR = path.join(work.path, 'tmp');
    const served = path.join(work.path, 'served');
    const human = path.join(work.path, 'human');
    const { mkdir } = await import('node:fs/promises');
    await mkdir(human);
    await mkdir(served);
    const repo = await createRepository(human, humanHistory(12));
    humanHashes = [...repo.hashes];
    await repo.git(['checkout', '--quiet', '-b', 'feature']);
    await repo.commit({ message: 'Feature work', date: Date.UTC(2019, 2, 1) / 1000, addLines: 40 });
    await repo.commit({
      message: 'Add lock file',
      date: Date.UTC(2019, 2, 2) / 1000,
      files: { 'package-lock.json': 'x\n'.repeat(3000), 'vendor/lib.js': 'y\n'.repeat(2000) },
      addLines: 5,
    });
    await repo.git(['checkout', '--quiet', 'main']);
    await exportRepository(served, 'acme/human.git', human);
    const burst = path.join(work.path, 'burst');
    await mkdir(burst);
    await createRepository(burst, burstHistory(4));
    await exportRepository(served, 'acme/burst.git', burst);
    const large = path.join(work.path, 'large');
    await mkdir(large);
    const { randomBytes } = await import('node:crypto');
    const blobs = Object.fromEntries(
      Array.from({ length: 6 }, (_, i) => [`blob${i}.bin`, randomBytes(4 * 1024 * 1024).toString('base64')]),
    );
    await createRepository(large, [{ message: 'Large blobs', date: Date.UTC(2020, 0, 1) / 1000, files: blobs }]);
    await exportRepository(served, 'acme/large.git', large);
    const empty = path.join(work.path, 'empty');
    await mkdir(empty);
    await createRepository(empty, []);
    await exportRepository(served, 'acme/empty.git', empty);
    daemon = await startGitDaemon(served);
  });
  after(async () => {
    if (sharedTmp === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = sharedTmp;
    await daemon?.close();
    await work?.remove();
  });

  it('clones, reads the whole history oldest first, and removes the clone on dispose', async () => {
    const before = await cloneDirsNow();
    const clone = await openRepository(
      parseRepositoryUrl(daemon.url('acme/human.git'), { allowLocalPaths: false }),
      base,
    );
    expect(clone.branch).to.equal('main');
    expect(clone.headCommit).to.equal(humanHashes[humanHashes.length - 1]);
    const { commits, stats } = await readHistory(clone.dir, { rev: clone.headCommit, excludeFiles: [] });
    expect(commits.map((c) => c.hash)).to.deep.equal(humanHashes);
    expect(commits[1]!.previousAuthorTime).to.equal(commits[0]!.authorTime);
    expect(commits[0]!.previousAuthorTime).to.equal(null);
    expect(stats).to.include({ historyCommits: 12, analyzedCommits: 12, authors: 1 });
    await clone.dispose();
    expect(existsSync(clone.dir)).to.equal(false);
    expect(await cloneDirsNow()).to.deep.equal(before);
  });

  it('clones a chosen branch and applies exclude_files to the line counts', async () => {
    const clone = await openRepository(parseRepositoryUrl(daemon.url('acme/human.git'), { allowLocalPaths: false }), {
      ...base,
      branch: 'feature',
    });
    try {
      const { commits } = await readHistory(clone.dir, {
        rev: clone.headCommit,
        excludeFiles: ['package-lock.json', 'vendor/**'],
      });
      const last = commits[commits.length - 1]!;
      expect(last.subject).to.equal('Add lock file');
      expect(last.additions).to.equal(5);
      expect(last.excludedAdditions).to.equal(5000);
      expect(
        last.files
          .filter((f) => f.excluded)
          .map((f) => f.path)
          .sort(),
      ).to.deep.equal(['package-lock.json', 'vendor/lib.js']);
    } finally {
      await clone.dispose();
    }
  });

  it('marks the boundary commit of a shallow clone', async () => {
    const clone = await openRepository(parseRepositoryUrl(daemon.url('acme/human.git'), { allowLocalPaths: false }), {
      ...base,
      depth: 3,
    });
    try {
      expect(clone.shallow).to.equal(true);
      const { commits } = await readHistory(clone.dir, { rev: clone.headCommit, excludeFiles: [] });
      expect(commits).to.have.length(3);
      expect(commits.map((c) => c.isBoundary)).to.deep.equal([true, false, false]);
    } finally {
      await clone.dispose();
    }
  });

  it('reads only a pushed range while the earlier history still feeds the baselines', async () => {
    const clone = await openRepository(parseRepositoryUrl(daemon.url('acme/human.git'), { allowLocalPaths: false }), {
      ...base,
      fetchCommit: humanHashes[11]!,
    });
    try {
      const { commits, stats } = await readHistory(clone.dir, {
        rev: humanHashes[11]!,
        before: humanHashes[8]!,
        excludeFiles: [],
      });
      expect(commits.map((c) => c.hash)).to.deep.equal(humanHashes.slice(9));
      expect(commits[0]!.previousAuthorTime).to.not.equal(null);
      expect(stats).to.include({ historyCommits: 12, analyzedCommits: 3 });
    } finally {
      await clone.dispose();
    }
  });

  it('gives a bounded diff excerpt without excluded files', async () => {
    const clone = await openRepository(parseRepositoryUrl(daemon.url('acme/human.git'), { allowLocalPaths: false }), {
      ...base,
      branch: 'feature',
    });
    try {
      const excerpt = await diffExcerpt(clone.dir, clone.headCommit, {
        maxBytes: 2000,
        excludeFiles: ['package-lock.json', 'vendor/**'],
      });
      expect(excerpt).to.contain('src/main.txt');
      expect(excerpt).to.not.contain('package-lock.json');
      const small = await diffExcerpt(clone.dir, clone.headCommit, { maxBytes: 300, excludeFiles: [] });
      expect(Buffer.byteLength(small)).to.be.below(400);
      expect(small).to.contain('[… truncated]');
    } finally {
      await clone.dispose();
    }
  });

  it('fails with ERR_BRANCH_NOT_FOUND for a branch that does not exist and ERR_NO_COMMITS_FOUND for an empty repository', async () => {
    const missing = await openRepository(parseRepositoryUrl(daemon.url('acme/human.git'), { allowLocalPaths: false }), {
      ...base,
      branch: 'no-such-branch',
    }).catch((e: unknown) => e);
    expect(missing).to.have.property('code', 'ERR_BRANCH_NOT_FOUND');
    const empty = await openRepository(
      parseRepositoryUrl(daemon.url('acme/empty.git'), { allowLocalPaths: false }),
      base,
    ).catch((e: unknown) => e);
    expect(empty).to.have.property('code', 'ERR_NO_COMMITS_FOUND');
  });

  it('opens a local repository in place: its head, its branch and whether it is shallow (one rev-parse answers both)', async () => {
    const local = (folder: string, branch?: string) =>
      openRepository(parseRepositoryUrl(path.join(work.path, folder), { allowLocalPaths: true }), {
        ...base,
        ...(branch ? { branch } : {}),
      });
    const human = await local('human');
    expect(human).to.include({ headCommit: humanHashes[humanHashes.length - 1], branch: 'main', shallow: false });
    const feature = await local('human', 'feature');
    expect(feature.headCommit).to.equal((await runGit(path.join(work.path, 'human'), ['rev-parse', 'feature'])).trim());
    expect(feature.shallow).to.equal(false);
    await runGit(work.path, ['clone', '-q', '--depth', '3', daemon.url('acme/human.git'), 'shallow-local']);
    const shallow = await local('shallow-local');
    expect(shallow).to.include({ headCommit: humanHashes[humanHashes.length - 1], shallow: true });
    expect(await local('human', 'no-such-branch').catch((e: unknown) => e)).to.have.property(
      'code',
      'ERR_BRANCH_NOT_FOUND',
    );
    expect(await local('empty').catch((e: unknown) => e)).to.have.property('code', 'ERR_NO_COMMITS_FOUND');
  });

  it('fails with ERR_GIT_CLONE_FAILED for an unreachable URL and a repository that is not there', async () => {
    const port = await freePort();
    const refused = await openRepository(
      parseRepositoryUrl(`git://127.0.0.1:${port}/acme/none.git`, { allowLocalPaths: false }),
      base,
    ).catch((e: unknown) => e);
    expect(refused).to.have.property('code', 'ERR_GIT_CLONE_FAILED');
    const absent = await openRepository(
      parseRepositoryUrl(daemon.url('acme/absent.git'), { allowLocalPaths: false }),
      base,
    ).catch((e: unknown) => e);
    expect(absent).to.have.property('code', 'ERR_GIT_CLONE_FAILED');
  });

  it('refuses a loopback target under the network guard and lets allowed_networks through', async () => {
    const locator = parseRepositoryUrl(daemon.url('acme/human.git'), { allowLocalPaths: false });
    const refused = await openRepository(locator, { ...base, policy: strict }).catch((e: unknown) => e);
    expect(refused).to.have.property('code', 'ERR_PRIVATE_ADDRESS');
    const clone = await openRepository(locator, { ...base, policy: loopbackAllowed });
    await clone.dispose();
  });

  it('aborts a clone that grows past the size cap with ERR_REPOSITORY_TOO_LARGE', async () => {
    const before = await cloneDirsNow();
    const error = await openRepository(parseRepositoryUrl(daemon.url('acme/large.git'), { allowLocalPaths: false }), {
      ...base,
      maxSizeBytes: 1024 * 1024,
    }).catch((e: unknown) => e);
    expect(error).to.have.property('code', 'ERR_REPOSITORY_TOO_LARGE');
    expect(await cloneDirsNow()).to.deep.equal(before);
  });

  it('aborts a clone of a stalled server at the clone timeout, and on cancel', async () => {
    const stalled: Server = createServer(() => undefined);
    await new Promise<void>((resolve) => stalled.listen(0, '127.0.0.1', resolve));
    const port = (stalled.address() as { port: number }).port;
    try {
      const locator = parseRepositoryUrl(`git://127.0.0.1:${port}/acme/stall.git`, { allowLocalPaths: false });
      const started = Date.now();
      const timedOut = await openRepository(locator, { ...base, timeoutMs: 500 }).catch((e: unknown) => e);
      expect(timedOut).to.have.property('code', 'ERR_GIT_CLONE_TIMEOUT');
      expect(Date.now() - started).to.be.below(5000);
      const controller = new AbortController();
      // Cancelled once git has connected to the silent server.
      stalled.once('connection', () => controller.abort());
      const cancelled = await openRepository(locator, { ...base, signal: controller.signal }).catch((e: unknown) => e);
      expect(cancelled).to.have.property('code', 'ERR_CANCELLED');
    } finally {
      stalled.close();
    }
  });

  it('reads a local repository in place and flags merges', async () => {
    const dir = path.join(work.path, 'merges');
    const { mkdir } = await import('node:fs/promises');
    await mkdir(dir);
    const repo = await createRepository(dir, humanHistory(2));
    await repo.git(['checkout', '--quiet', '-b', 'side']);
    await repo.commit({ message: 'side', date: Date.UTC(2019, 5, 1) / 1000, addLines: 3, file: 'side.txt' });
    await repo.git(['checkout', '--quiet', 'main']);
    await repo.git([
      '-c',
      'user.name=A',
      '-c',
      'user.email=a@example.test',
      'merge',
      '--no-ff',
      '--quiet',
      '-m',
      'Merge side',
      'side',
    ]);
    const opened = await openRepository(parseRepositoryUrl(dir, { allowLocalPaths: true }), base);
    const { commits } = await readHistory(opened.dir, { rev: opened.headCommit, excludeFiles: [] });
    const merge = commits.find((c) => c.subject === 'Merge side')!;
    expect(merge.isMerge).to.equal(true);
    expect(merge.additions).to.equal(0);
    expect(existsSync(dir)).to.equal(true);
  });
});
