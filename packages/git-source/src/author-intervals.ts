import { itemAt } from '@cadence-detect/errors';

/** The fields the author intervals read and write (a CommitRecord under construction). */
export interface IntervalCommit {
  readonly hash?: string;
  readonly authorEmail: string;
  readonly authorTime: number;
  previousAuthorTime: number | null;
}

/**
 * Each commit's `previousAuthorTime`: the same author's closest earlier author date. Ordering by
 * date rather than by graph keeps rebased and cherry-picked histories from producing negative gaps.
 * The git source leaves out commits whose author date is unknown (they have no interval and end
 * none); the plugin testkit builds its commits with this same function. A copy of an earlier
 * commit (`copies`: a cherry-pick, cherry-picks.ts) takes its original's interval: its author wrote
 * nothing in the 0 s between the two.
 */
export function linkAuthorIntervals(commits: IntervalCommit[], copies: ReadonlySet<string> = new Set()): void {
  const byAuthor = new Map<string, IntervalCommit[]>();
  for (const commit of commits) {
    const key = commit.authorEmail.toLowerCase();
    const list = byAuthor.get(key);
    if (list) list.push(commit);
    else byAuthor.set(key, [commit]);
  }
  for (const list of byAuthor.values()) {
    list.sort((a, b) => a.authorTime - b.authorTime);
    for (let i = 1; i < list.length; i++) {
      const commit = itemAt(list, i);
      const previous = itemAt(list, i - 1);
      const copy = commit.hash !== undefined && copies.has(commit.hash) && previous.authorTime === commit.authorTime;
      commit.previousAuthorTime = copy ? previous.previousAuthorTime : previous.authorTime;
    }
  }
}
