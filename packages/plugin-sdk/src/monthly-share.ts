import type { MonthlyShare } from './result.js';

/** One month's totals: commits, scored commits, the explicit ones and the inferred probabilities' sum. */
export interface MonthTotals {
  commits: number;
  scored: number;
  explicit: number;
  inferred: number;
  assistants: Record<string, number>;
}

/**
 * Months in order, each share rounded once so that `explicit_share + inferred_share` is the month's
 * share exactly: a repository's `months` and an organization's are made the same way.
 * @since 1.7
 */
export function monthlyShares(months: ReadonlyMap<string, MonthTotals>): MonthlyShare[] {
  const round = (value: number): number => Math.round(value * 1000) / 1000;
  return [...months.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([month, t]) => {
      const explicit = t.scored > 0 ? round(t.explicit / t.scored) : 0;
      const share = t.scored > 0 ? round((t.explicit + t.inferred) / t.scored) : 0;
      return {
        month,
        commits: t.commits,
        scored_commits: t.scored,
        explicit_share: explicit,
        inferred_share: round(Math.max(0, share - explicit)),
        assistants: t.assistants,
      };
    });
}
