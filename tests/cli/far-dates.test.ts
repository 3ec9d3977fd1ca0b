import { expect } from 'chai';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createRepository, humanHistory, makeTempDir, runCadence, type TempDir } from '@cadence-detect/test-support';

interface JsonReport {
  total_commits: number;
  suspicions: { commit_hash: string; date?: string; reasons: string[] }[];
  metrics: { time_span_seconds: number };
}

/** Git accepts it and `git fsck --strict` passes; JavaScript cannot make a Date of it. */
const FAR_FUTURE = 99_999_999_999_999;

describe('cadence analyze on a history with dates past year 9999 (the real CLI process)', function () {
  this.timeout(60_000);
  let work: TempDir;
  let repo: string;
  let farHashes: string[];

  before(async () => {
    work = await makeTempDir('cadence-cli-far-');
    repo = path.join(work.path, 'far');
    await mkdir(repo);
    const human = humanHistory(10);
    const fixture = await createRepository(repo, human);
    // Committed a minute after the last human commit: were the stand-in date measured, 2,500
    // lines in a minute would be a velocity finding, and the next commit a timing one.
    const committed = (human[human.length - 1]!.date as number) + 60;
    // Large enough for a size finding, so each commit is reported with its date.
    const authorOnly = await fixture.commit({
      message: 'Far author date',
      date: FAR_FUTURE,
      committerDate: committed,
      addLines: 2500,
      file: 'src/a.txt',
    });
    const both = await fixture.commit({
      message: 'Far dates',
      date: FAR_FUTURE,
      committerDate: FAR_FUTURE,
      addLines: 2500,
      file: 'src/b.txt',
    });
    farHashes = [authorOnly, both];
    await fixture.git(['fsck', '--strict']);
    // The size strategy's findings are what this test reads: the heuristic scoring reports them as suspicions.
    await writeFile(path.join(work.path, 'heuristic.yaml'), 'strategies:\n  disabled: [commit-model]\n');
  });
  after(() => work.remove());

  it('completes with a JSON result whose dates are real dates', async () => {
    const run = await runCadence(['analyze', repo, '--json', '--config', 'heuristic.yaml'], { cwd: work.path });

    expect(run.code, run.stderr).to.equal(0);
    const report = JSON.parse(run.stdout) as JsonReport;
    expect(report.total_commits).to.equal(12);
    const flagged = report.suspicions.filter((s) => farHashes.some((h) => h.startsWith(s.commit_hash)));
    expect(flagged).to.have.length(2);
    for (const s of flagged) {
      expect(s.date).to.match(/^20\d\d-/);
      // No timing or velocity finding: the author date that would measure them is unknown.
      expect(s.reasons.filter((r) => /^(timing|velocity):/.test(r))).to.deep.equal([]);
    }
    expect(report.metrics.time_span_seconds).to.be.below(365 * 86400);
  });

  it('writes an HTML report whose timeline stays within the real history', async () => {
    const run = await runCadence(['analyze', repo, '-o', 'far.html'], { cwd: work.path });

    expect(run.code, run.stderr).to.equal(0);
    const html = await readFile(path.join(work.path, 'far.html'), 'utf8');
    expect(html).to.contain('<svg');
    expect(html).to.not.match(/\+\d{6}-|Invalid Date/);
  });
});
