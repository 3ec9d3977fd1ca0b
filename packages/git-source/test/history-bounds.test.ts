import { expect } from 'chai';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createRepository, makeTempDir, runGit, type TempDir } from '@cadence-detect/test-support';
import type { CommitRecord } from '@cadence-detect/plugin-sdk';
import { readHistory } from '../src/index.js';

const T0 = Date.UTC(2022, 0, 10, 9) / 1000;
/** Accepted by git (`@99999999999999 +0000`) and by `git fsck --strict`; year 3170843. */
const FAR_FUTURE = 99_999_999_999_999;
/** 9999-12-31T23:59:59Z. */
const LATEST_TIME = 253402300799;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function expectCapped(value: string, cap: number, startsWith: string): void {
  expect(value.length, value.slice(0, 40)).to.be.at.most(cap);
  expect(value.length).to.be.at.least(cap - 2);
  expect(value.endsWith('…')).to.equal(true);
  expect(value.startsWith(startsWith)).to.equal(true);
  expect(LONE_SURROGATE.test(value)).to.equal(false);
}

describe('history bounds: retained strings and dates', function () {
  this.timeout(60_000);
  let work: TempDir;

  before(async () => {
    work = await makeTempDir('cadence-bounds-');
  });
  after(() => work.remove());

  it('caps subjects, identities, bodies and paths, keeping the body trailers', async () => {
    const dir = path.join(work.path, 'long');
    await mkdir(dir);
    await createRepository(dir);
    // Surrogate pairs throughout: a cut at any even offset would split one, and 400 KB of UTF-8
    // arrives in many chunks, so characters straddle chunk edges too.
    const subject = '😀'.repeat(51_200);
    const body = `${'Body line ünïcödé.\n'.repeat(3000)}\nCo-authored-by: Bot <bot@example.test>`;
    const longPath = ['a'.repeat(200), 'b'.repeat(200), `${'c'.repeat(200)}.txt`].join('/');
    await writeFile(path.join(dir, 'message.txt'), `${subject}\n\n${body}\n`);
    await mkdir(path.join(dir, path.dirname(longPath)), { recursive: true });
    await writeFile(path.join(dir, longPath), 'one\ntwo\n');
    await runGit(dir, ['add', longPath]);
    await runGit(dir, ['commit', '--quiet', '-F', 'message.txt'], {
      GIT_AUTHOR_NAME: 'Ä'.repeat(10_240),
      GIT_AUTHOR_EMAIL: `${'e'.repeat(10_240)}@example.test`,
      GIT_COMMITTER_NAME: 'C'.repeat(10_240),
      GIT_COMMITTER_EMAIL: `${'c'.repeat(10_240)}@example.test`,
      GIT_AUTHOR_DATE: `@${T0} +0000`,
      GIT_COMMITTER_DATE: `@${T0} +0000`,
    });

    const { commits } = await readHistory(dir, { rev: 'HEAD', excludeFiles: [] });

    const commit = commits[0]!;
    expectCapped(commit.subject, 500, '😀😀');
    expectCapped(commit.authorName, 200, 'ÄÄ');
    expectCapped(commit.authorEmail, 200, 'eee');
    expectCapped(commit.committerName, 200, 'CCC');
    expectCapped(commit.committerEmail, 200, 'ccc');
    expect(commit.body.length).to.be.at.most(2000);
    expect(commit.body.startsWith('Body line ünïcödé.')).to.equal(true);
    expect(commit.body.endsWith('Co-authored-by: Bot <bot@example.test>')).to.equal(true);
    expect(commit.body).to.contain('\n…\n');
    expectCapped(commit.files[0]!.path, 500, 'aaa');
    expect(commit.additions).to.equal(2);
  });

  it('treats an author date past year 9999 as unknown: the committer date stands in and no interval is measured', async () => {
    const dir = path.join(work.path, 'far');
    await mkdir(dir);
    const repo = await createRepository(dir);
    const first = await repo.commit({ message: 'First', date: T0, addLines: 5 });
    const far = await repo.commit({
      message: 'Far author date',
      date: FAR_FUTURE,
      committerDate: T0 + 120,
      addLines: 9,
    });
    const after = await repo.commit({ message: 'After', date: T0 + 240, addLines: 3 });
    const lost = await repo.commit({
      message: 'No usable date',
      date: FAR_FUTURE,
      committerDate: FAR_FUTURE,
      addLines: 4,
    });
    await repo.git(['fsck', '--strict']);

    const { commits, stats } = await readHistory(dir, { rev: 'HEAD', excludeFiles: [] });

    const byHash = new Map<string, CommitRecord>(commits.map((c) => [c.hash, c]));
    const times = (hash: string) => {
      const c = byHash.get(hash)!;
      return { authorTime: c.authorTime, committerTime: c.committerTime, previousAuthorTime: c.previousAuthorTime };
    };
    expect(times(first)).to.deep.equal({ authorTime: T0, committerTime: T0, previousAuthorTime: null });
    expect(times(far)).to.deep.equal({ authorTime: T0 + 120, committerTime: T0 + 120, previousAuthorTime: null });
    // The far commit is no link in its author's chain: the next interval is measured from `first`.
    expect(times(after)).to.deep.equal({ authorTime: T0 + 240, committerTime: T0 + 240, previousAuthorTime: T0 });
    // Neither date usable: the neighbour's time, so spans and timelines stay the history's own.
    expect(times(lost)).to.deep.equal({ authorTime: T0 + 240, committerTime: T0 + 240, previousAuthorTime: null });
    expect(stats).to.include({ firstCommitTime: T0, lastCommitTime: T0 + 240 });
    for (const c of commits) expect(c.authorTime).to.be.within(0, LATEST_TIME);
  });
});
