import { expect } from 'chai';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { createRepository, makeTempDir, runCadence, runGit, type TempDir } from '@cadence-detect/test-support';

const T0 = Date.UTC(2025, 2, 3, 10) / 1000;
const rows = (prefix: string, n: number): string =>
  `${Array.from({ length: n }, (_, i) => `${prefix}${i + 1}`).join('\n')}\n`;

/** A repository whose object store lost blobs (a damaged clone): the analysis reads what it can. */
describe('cadence analyze on a repository missing git objects', function () {
  this.timeout(60_000);
  let work: TempDir;
  let dir: string;
  const lost: string[] = [];

  before(async () => {
    work = await makeTempDir('cadence-missing-objects-');
    dir = path.join(work.path, 'repo');
    await mkdir(dir);
    await createRepository(dir, [
      { message: 'Initial import', date: T0, files: { 'src/a.txt': rows('a', 5), 'docs/diagram.txt': rows('d', 30) } },
      { message: 'Redraw the diagram', date: T0 + 3600, files: { 'docs/diagram.txt': rows('e', 31) } },
      { message: 'More code', date: T0 + 7200, files: { 'src/a.txt': rows('a', 8) } },
      { message: 'Redraw it again', date: T0 + 10_800, files: { 'docs/diagram.txt': rows('f', 12) } },
    ]);
    // The first two versions of the diagram are lost: their loose objects deleted, as a damaged copy would be.
    for (const rev of ['HEAD~3:docs/diagram.txt', 'HEAD~2:docs/diagram.txt'])
      lost.push((await runGit(dir, ['rev-parse', rev])).trim());
    for (const blob of lost) await rm(path.join(dir, '.git', 'objects', blob.slice(0, 2), blob.slice(2)));
    // git itself fails on it, as it did for the user.
    expect(
      await runGit(dir, ['log', '--numstat']).then(
        () => 'read',
        () => 'failed',
      ),
    ).to.equal('failed');
  });
  after(() => work.remove());

  it('judges every commit, counts those whose diff could not be read, and says so once', async () => {
    const json = await runCadence(['analyze', dir, '--json'], { cwd: work.path });
    expect(json.code, json.stderr).to.equal(0);
    const result = JSON.parse(json.stdout) as {
      total_commits: number;
      unreadable_commits: number;
      unreadable_files: string[];
      lines?: { counted: number };
    };
    expect(result.total_commits).to.equal(4);
    // The first commit (adds the lost version), the second (replaces it by another lost one), the fourth (replaces that).
    expect(result.unreadable_commits).to.equal(3);
    expect(result.unreadable_files).to.deep.equal(['docs/diagram.txt']);
    // The lines of the files it can read are counted: the lacking file is left out of them.
    expect(result.lines?.counted).to.equal(8);
    expect(json.stderr.split('\n').filter((l) => l.includes('warning'))).to.deep.equal([
      'cadence: warning: the repository lacks versions of 1 file(s); 3 commit(s) judged without their lines (unreadable_commits)',
    ]);
    const text = await runCadence(['analyze', dir], { cwd: work.path });
    expect(text.code, text.stderr).to.equal(0);
    expect(text.stdout).to.contain(
      'The repository lacks versions of 1 file (docs/diagram.txt): a damaged or partial clone. 3 commits were judged without its lines',
    );
  });
});
