import { expect } from 'chai';
import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import {
  createRepository,
  humanHistory,
  makeTempDir,
  runCadence,
  type FixtureCommit,
  type TempDir,
} from '@cadence-detect/test-support';

interface Result {
  assessment: string;
  suspicions: unknown[];
  detections: { commit?: string; severity: string; flagged?: boolean }[];
}

/** A human history with two quick follow-up commits: findings of `high` severity that the verdict does not flag. */
function humanWithQuickFixes(): FixtureCommit[] {
  // Four days apart: five months of history, so each author has a trend.
  const history = humanHistory(40, Date.UTC(2024, 0, 8, 9) / 1000).map((c, i) => ({
    ...c,
    date: Date.UTC(2024, 0, 8, 9) / 1000 + i * 4 * 86_400 + ((i * 977) % 3600),
  }));
  const at = (i: number): number => Number(history[i]!.date);
  return [
    ...history.slice(0, 20),
    { message: 'Fix typo in the parser', date: at(19) + 20, addLines: 60, file: 'src/parser.txt' },
    ...history.slice(20, 30),
    { message: 'Fix the fix', date: at(29) + 15, addLines: 45, file: 'src/parser.txt' },
    ...history.slice(30),
  ];
}

describe('one story per commit: the HTML report of a clean history (the real CLI)', function () {
  this.timeout(60_000);
  let work: TempDir;
  let page: string;
  let result: Result;

  before(async () => {
    work = await makeTempDir('cadence-story-');
    const repo = path.join(work.path, 'repo');
    await mkdir(repo);
    await createRepository(repo, humanWithQuickFixes());
    const json = await runCadence(['analyze', repo, '--json'], { cwd: work.path });
    expect(json.code, json.stderr).to.equal(0);
    result = JSON.parse(json.stdout) as Result;
    const run = await runCadence(['analyze', repo, '-o', 'report.html'], { cwd: work.path });
    expect(run.code, run.stderr).to.equal(0);
    page = await readFile(path.join(work.path, 'report.html'), 'utf8');
  });
  after(() => work.remove());

  it('has findings the verdict does not flag, some of them high (the case the page must not paint red)', () => {
    expect(result.assessment).to.equal('clean');
    const unflagged = result.detections.filter((d) => d.commit && d.flagged === false);
    expect(
      unflagged.some((d) => d.severity === 'high'),
      JSON.stringify(result.detections.map((d) => [d.severity, d.flagged])),
    ).to.equal(true);
  });

  it('shows no severity badge over a clean verdict, and keeps those findings closed and muted behind a toggle', () => {
    expect(page).to.not.match(/class="sev (high|medium|low)"/);
    const details =
      /<details class="unflagged"><summary>Findings on commits that are not flagged \((\d+)\)<\/summary>/.exec(page);
    expect(details, 'the toggle').to.not.equal(null);
    expect(Number(details![1])).to.equal(result.detections.filter((d) => d.commit && d.flagged === false).length);
    expect(page).to.not.contain('<details class="unflagged" open');
  });

  it('draws the share by month and a trend per author, readable without script', () => {
    expect(page).to.contain('<h2>Assistant share by month</h2>');
    expect(page).to.match(/<title id="share-chart-title">Assistant share by month, 2024-01 to 2024-0\d/);
    expect(page).to.match(/<svg class="trend"[^>]*aria-label="share by month from 2024-01 to 2024-0\d: /);
  });
});
