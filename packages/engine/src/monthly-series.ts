import {
  monthlyShares,
  type AuthorMonths,
  type CommitRecord,
  type MonthlyShare,
  type MonthTotals,
} from '@cadence-detect/plugin-sdk';

/** How many authors get a series of their own: the most commits first. */
export const AUTHORS_WITH_SERIES = 20;

/** What the series needs of one judged commit. */
export interface JudgedForSeries {
  readonly commit: CommitRecord;
  /** In `ai_share`'s denominator. */
  readonly counts: boolean;
  readonly explicit: boolean;
  readonly confidence: number;
  readonly assistants: readonly string[];
}

/**
 * The history's trend (docs/scoring.md, Trend): per calendar month of the author date in UTC, the
 * commits, and the month's `ai_share` split into what the history says outright (`explicit_share`:
 * attributed commits over scored ones) and what is inferred (the rest, so the two add up to the
 * month's share); the same per author for the authors with the most commits.
 */
export class MonthlySeries {
  /** `identity`: the key of a commit's author (one per person); the e-mail in any case when absent. */
  constructor(
    private readonly identity: (commit: CommitRecord) => string = (commit) => commit.authorEmail.toLowerCase(),
  ) {}

  private readonly months = new Map<string, MonthTotals>();
  private readonly byAuthor = new Map<
    string,
    { author: string; email: string; commits: number; months: Map<string, MonthTotals> }
  >();

  add(judged: JudgedForSeries): void {
    const month = monthOf(judged.commit.authorTime);
    addTo(this.months, month, judged);
    const key = this.identity(judged.commit);
    let author = this.byAuthor.get(key);
    if (!author) {
      author = { author: judged.commit.authorName, email: judged.commit.authorEmail, commits: 0, months: new Map() };
      this.byAuthor.set(key, author);
    }
    author.commits++;
    addTo(author.months, month, judged);
  }

  series(): MonthlyShare[] {
    return toSeries(this.months);
  }

  authorSeries(): AuthorMonths[] {
    return [...this.byAuthor.values()]
      .sort((a, b) => b.commits - a.commits || a.email.localeCompare(b.email))
      .slice(0, AUTHORS_WITH_SERIES)
      .map((a) => ({ author: a.author, email: a.email, commits: a.commits, months: toSeries(a.months) }));
  }
}

/** `YYYY-MM` of a Unix time, in UTC. */
export function monthOf(seconds: number): string {
  return new Date(seconds * 1000).toISOString().slice(0, 7);
}

function addTo(months: Map<string, MonthTotals>, month: string, judged: JudgedForSeries): void {
  let totals = months.get(month);
  if (!totals) {
    totals = { commits: 0, scored: 0, explicit: 0, inferred: 0, assistants: {} };
    months.set(month, totals);
  }
  totals.commits++;
  if (judged.counts) {
    totals.scored++;
    if (judged.explicit) totals.explicit++;
    else totals.inferred += judged.confidence;
  }
  if (judged.explicit)
    for (const name of judged.assistants) totals.assistants[name] = (totals.assistants[name] ?? 0) + 1;
}

function toSeries(months: Map<string, MonthTotals>): MonthlyShare[] {
  return monthlyShares(months);
}
