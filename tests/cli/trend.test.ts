import { expect } from 'chai';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import {
  createRepository,
  makeTempDir,
  runCadence,
  type FixtureCommit,
  type TempDir,
} from '@cadence-detect/test-support';

interface Month {
  month: string;
  commits: number;
  scored_commits: number;
  explicit_share: number;
  inferred_share: number;
  assistants: Record<string, number>;
}

interface Result {
  ai_share: number;
  scored_commits: number;
  months: Month[];
  author_months: { author: string; email: string; commits: number; months: Month[] }[];
}

const ADA = { name: 'Ada Example', email: 'ada@example.test' };
const BO = { name: 'Bo Example', email: 'bo@example.test' };

/** `count` small commits by `author` spread over the month starting at `monthStart` (UTC). */
function monthOfWork(monthStart: number, count: number, author: typeof ADA, attributed = 0): FixtureCommit[] {
  return Array.from({ length: count }, (_, i) => ({
    author,
    date: monthStart / 1000 + 86_400 * (1 + i * 2) + ((i * 977) % 3600),
    message:
      i < attributed
        ? `Add handler ${i}\n\nCo-Authored-By: Claude <noreply@anthropic.com>`
        : `Fix case ${i} in the parser`,
    addLines: 4 + ((i * 7) % 20),
    file: `src/${author.name.split(' ')[0]!.toLowerCase()}-${i}.txt`,
  }));
}

describe('a history\u2019s trend: months[] and author_months[] (cadence analyze on a real repository)', function () {
  this.timeout(60_000);
  let work: TempDir;
  let result: Result;

  before(async () => {
    work = await makeTempDir('cadence-trend-');
    const repo = path.join(work.path, 'repo');
    await mkdir(repo);
    await createRepository(repo, [
      ...monthOfWork(Date.UTC(2025, 0, 1), 6, ADA),
      ...monthOfWork(Date.UTC(2025, 1, 1), 4, ADA),
      ...monthOfWork(Date.UTC(2025, 1, 1) + 3600_000, 4, BO, 4),
      ...monthOfWork(Date.UTC(2025, 3, 1), 5, ADA, 2),
    ]);
    const run = await runCadence(['analyze', repo, '--json'], { cwd: work.path });
    expect(run.code, run.stderr).to.equal(0);
    result = JSON.parse(run.stdout) as Result;
  });
  after(() => work.remove());

  it('gives one entry per month with commits, oldest first, months without commits left out', () => {
    expect(result.months.map((m) => [m.month, m.commits])).to.deep.equal([
      ['2025-01', 6],
      ['2025-02', 8],
      ['2025-04', 5],
    ]);
  });

  it('splits each month\u2019s share into explicit and inferred parts that add up to it', () => {
    const [january, february, april] = result.months;
    expect(january!.explicit_share).to.equal(0);
    expect(january!.assistants).to.deep.equal({});
    expect(february!.explicit_share).to.equal(0.5);
    expect(february!.assistants).to.deep.equal({ 'Claude Code': 4 });
    expect(april!.explicit_share).to.equal(0.4);
    for (const month of result.months) {
      expect(month.inferred_share).to.be.within(0, 1 - month.explicit_share + 1e-9);
    }
    // The months together are the history: weighted by their scored commits, they give ai_share.
    expect(result.months.reduce((sum, m) => sum + m.scored_commits, 0)).to.equal(result.scored_commits);
    const weighted =
      result.months.reduce((sum, m) => sum + (m.explicit_share + m.inferred_share) * m.scored_commits, 0) /
      result.scored_commits;
    expect(weighted).to.be.closeTo(result.ai_share, 0.002);
  });

  it('gives the same series per author, most commits first', () => {
    expect(result.author_months.map((a) => [a.author, a.commits])).to.deep.equal([
      ['Ada Example', 15],
      ['Bo Example', 4],
    ]);
    const bo = result.author_months[1]!;
    expect(bo.months).to.deep.equal([
      {
        month: '2025-02',
        commits: 4,
        scored_commits: 4,
        explicit_share: 1,
        inferred_share: 0,
        assistants: { 'Claude Code': 4 },
      },
    ]);
    expect(result.author_months[0]!.months.map((m) => m.month)).to.deep.equal(['2025-01', '2025-02', '2025-04']);
  });
});
