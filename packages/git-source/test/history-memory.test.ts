import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { createRepository, makeTempDir, type FixtureRepository, type TempDir } from '@cadence-detect/test-support';
import { CadenceError } from '@cadence-detect/errors';
import { DEFAULT_GIT_BOUNDS, diffExcerpt, readHistory } from '../src/index.js';

const MIB = 1024 * 1024;
/** Two million one-character lines: 4 MB of text that git's line diff holds as four million records. */
const LINES = 2_000_000;

/** Peak resident memory (VmHWM) of this process's children, sampled every 5 ms until stopped. */
function sampleChildren(): () => number {
  let peak = 0;
  const timer = setInterval(() => {
    try {
      for (const pid of readFileSync(`/proc/${process.pid}/task/${process.pid}/children`, 'utf8')
        .trim()
        .split(/\s+/)
        .filter(Boolean)) {
        // git's own peak: the test process has other children (test-support's light spawner).
        if (readFileSync(`/proc/${pid}/comm`, 'utf8').trim() !== 'git') continue;
        const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
        if (match) peak = Math.max(peak, Number(match[1]) * 1024);
      }
    } catch {
      // a child exited between the two reads
    }
  }, 5);
  return () => (clearInterval(timer), peak);
}

describe('history memory: blobs that would make git diff gigabytes', function () {
  this.timeout(120_000);
  let work: TempDir;
  let repo: FixtureRepository;
  let small: FixtureRepository;

  before(async () => {
    work = await makeTempDir('cadence-memory-');
    const dir = path.join(work.path, 'lines');
    await mkdir(dir);
    // The finding's shape, smaller: a file of many short lines, then a one-character change.
    repo = await createRepository(dir, [
      { message: 'many lines', date: 1_700_000_000, files: { 'lines.txt': 'a\n'.repeat(LINES), 'small.txt': 'one\n' } },
      {
        message: 'one byte',
        date: 1_700_000_600,
        files: { 'lines.txt': `b${'\na'.repeat(LINES)}`.slice(0, 2 * LINES), 'small.txt': 'one\ntwo\n' },
      },
    ]);
    const smallDir = path.join(work.path, 'small');
    await mkdir(smallDir);
    small = await createRepository(smallDir, [
      { message: 'first', date: 1_700_000_000, addLines: 30 },
      { message: 'second', date: 1_700_000_600, addLines: 12 },
    ]);
  });
  after(() => work.remove());

  it('counts a blob above the cap as binary without a line diff, and says which commits have one', async () => {
    const stop = sampleChildren();
    const history = await readHistory(repo.dir, {
      rev: 'HEAD',
      excludeFiles: [],
      bounds: { maxDiffBlobBytes: 1 * MIB, addressSpaceBytes: DEFAULT_GIT_BOUNDS.addressSpaceBytes },
    });
    const gitPeak = stop();

    expect(history.commits.map((c) => c.subject)).to.deep.equal(['many lines', 'one byte']);
    for (const commit of history.commits) {
      const big = commit.files.find((f) => f.path === 'lines.txt');
      expect(big, commit.subject).to.deep.include({ binary: true, additions: 0, deletions: 0 });
    }
    // The small file beside it still has its line diff.
    expect(history.commits[1]!.files.find((f) => f.path === 'small.txt')).to.deep.include({
      binary: false,
      additions: 1,
      deletions: 0,
    });
    expect(history.commits.map((c) => c.additions)).to.deep.equal([1, 1]);
    expect(history.oversizedFiles).to.equal(2);
    expect(history.oversizedCommits).to.deep.equal(repo.hashes);
    // Diffing the two sides line by line takes git about 170 MB here.
    expect(gitPeak).to.be.below(64 * MIB);
  });

  it('diffs the same blobs line by line below the cap (16 MiB by default), with no oversized files', async () => {
    const history = await readHistory(repo.dir, { rev: 'HEAD', excludeFiles: [] });
    expect(history.commits.map((c) => c.additions)).to.deep.equal([LINES + 1, 2]);
    expect(history.oversizedFiles).to.equal(0);
    expect(history.oversizedCommits).to.deep.equal([]);
  });

  it('fails with ERR_REPOSITORY_TOO_LARGE when git reaches its memory ceiling', async () => {
    const error = await readHistory(repo.dir, {
      rev: 'HEAD',
      excludeFiles: [],
      bounds: { maxDiffBlobBytes: 64 * MIB, addressSpaceBytes: 128 * MIB },
    }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(CadenceError.is(error, 'ERR_REPOSITORY_TOO_LARGE'), String(error)).to.equal(true);
    expect((error as Error).message).to.include('128 MiB');
  });

  it('reads an ordinary history within the same ceiling', async () => {
    const history = await readHistory(small.dir, {
      rev: 'HEAD',
      excludeFiles: [],
      bounds: { maxDiffBlobBytes: 64 * MIB, addressSpaceBytes: 128 * MIB },
    });
    expect(history.commits.map((c) => c.additions)).to.deep.equal([30, 12]);
  });

  it('shows a blob above the cap as binary in a diff excerpt', async () => {
    const excerpt = await diffExcerpt(repo.dir, repo.hashes[1]!, {
      maxBytes: 4096,
      excludeFiles: [],
      bounds: { maxDiffBlobBytes: 1 * MIB, addressSpaceBytes: DEFAULT_GIT_BOUNDS.addressSpaceBytes },
    });
    expect(excerpt).to.include('Binary files a/lines.txt and b/lines.txt differ');
    expect(excerpt).to.include('+two');
  });
});
