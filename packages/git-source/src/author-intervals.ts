/** The fields the author intervals read and write (a CommitRecord under construction). */
export interface IntervalCommit {
  readonly authorEmail: string;
  readonly authorTime: number;
  previousAuthorTime: number | null;
}

/**
 * Each commit's `previousAuthorTime`: the same author's closest earlier author date. Ordering by
 * date rather than by graph keeps rebased and cherry-picked histories from producing negative gaps.
 * The git source leaves out commits whose author date is unknown (they have no interval and end
 * none); the plugin testkit builds its commits with this same function.
 */
export function linkAuthorIntervals(commits: IntervalCommit[]): void {
  const byAuthor = new Map<string, IntervalCommit[]>();
  for (const commit of commits) {
    const key = commit.authorEmail.toLowerCase();
    const list = byAuthor.get(key);
    if (list) list.push(commit);
    else byAuthor.set(key, [commit]);
  }
  for (const list of byAuthor.values()) {
    list.sort((a, b) => a.authorTime - b.authorTime);
    for (let i = 1; i < list.length; i++) list[i]!.previousAuthorTime = list[i - 1]!.authorTime;
  }
}
