/** One file of a commit as `git log --numstat` reports it, after the exclude globs were applied. */
export interface CommitFileChange {
  readonly path: string;
  readonly additions: number;
  readonly deletions: number;
  /** numstat prints `-` for binary files: they count as zero lines. */
  readonly binary: boolean;
  /** Matched `exclude_files` (lock files, vendored and generated paths): not counted in the commit's totals. */
  readonly excluded: boolean;
}

/**
 * A commit as strategies see it. Times are Unix seconds. Sizes exclude files matched by `exclude_files`.
 * Kept compact on purpose: a 100,000-commit history is held as these records, never as text.
 */
export interface CommitRecord {
  readonly hash: string;
  readonly shortHash: string;
  readonly parents: readonly string[];
  readonly authorName: string;
  readonly authorEmail: string;
  /**
   * Author date: what time deltas use (docs/scoring.md). Always within 1970..9999: the git source reads
   * a date outside that range as unknown and puts the committer date (or a neighbour's) in its place.
   */
  readonly authorTime: number;
  readonly committerName: string;
  readonly committerEmail: string;
  readonly committerTime: number;
  /** First line of the message. */
  readonly subject: string;
  /** The rest of the message (trailers included), cut at a bounded length. */
  readonly body: string;
  /** Lines added and deleted, excluded files left out. */
  readonly additions: number;
  readonly deletions: number;
  /** Lines added and deleted in excluded files. */
  readonly excludedAdditions: number;
  readonly excludedDeletions: number;
  /** Number of files the commit touches (all of them, excluded ones included). */
  readonly filesChanged: number;
  /** The files, at most a bounded number of them (see `filesTruncated`). */
  readonly files: readonly CommitFileChange[];
  readonly filesTruncated: boolean;
  /** More than one parent. Merges carry no size or velocity finding (docs/scoring.md). */
  readonly isMerge: boolean;
  /** The boundary commit of a shallow clone: its parents are missing, so it looks like it adds the whole tree. */
  readonly isBoundary: boolean;
  /**
   * Author date of the same author's previous commit in the history; null for their first, and for
   * a commit whose own author date was unknown (no interval can be measured from a stand-in).
   */
  readonly previousAuthorTime: number | null;
  /**
   * The folder this commit adds as a project of its own (it brings its own licence file,
   * at least 100 counted lines under it), with the lines added under it: a
   * vendored or copied library. Null for most commits. Absent from records made by older hosts.
   * @since 1.2
   */
  readonly importedTree?: { readonly path: string; readonly additions: number } | null;
  /**
   * The author and committer as the commit itself names them, when the repository's `.mailmap`
   * changed either (`authorName` and the rest are after it, so one person's names count as one).
   * Who made a commit (an agent's account, a bot) is decided on these: a `.mailmap` a change
   * commits cannot rename an agent into a person. Absent when `.mailmap` changed nothing, and from
   * records made by older hosts. `writtenIdentity(commit)` reads either.
   * @since 1.15
   */
  readonly writtenAs?: WrittenIdentity;
}

/** A commit's author and committer before any `.mailmap`. */
export interface WrittenIdentity {
  readonly authorName: string;
  readonly authorEmail: string;
  readonly committerName: string;
  readonly committerEmail: string;
}

/** The author and committer as the commit names them (`writtenAs`, or the record's own when `.mailmap` changed nothing). */
export function writtenIdentity(commit: CommitRecord): WrittenIdentity {
  return commit.writtenAs ?? commit;
}

/** Repository-wide statistics, for strategies that judge a commit against its repository's baseline. */
export interface RepositoryStats {
  /** Commits in the history that was read (the analyzed ones and, for a push, the history before them). */
  readonly historyCommits: number;
  /** Commits analyzed (for a push, those in `before..after`). */
  readonly analyzedCommits: number;
  readonly authors: number;
  readonly firstCommitTime: number | null;
  readonly lastCommitTime: number | null;
  readonly totalAdditions: number;
  readonly totalDeletions: number;
  /** Of non-merge, non-boundary analyzed commits. */
  readonly medianAdditions: number;
  readonly p90Additions: number;
  /** Median seconds between an author's consecutive commits, null when nobody committed twice. */
  readonly medianAuthorIntervalSeconds: number | null;
}

/** The effective thresholds (configuration `thresholds.*`, CLI flags applied). */
export interface Thresholds {
  readonly suspicious_additions: number;
  readonly suspicious_deletions: number;
  readonly max_additions_per_min: number;
  readonly max_deletions_per_min: number;
  readonly min_time_delta_seconds: number;
}

/** The defaults of `thresholds.*` (the configuration schema uses these). */
export const DEFAULT_THRESHOLDS: Readonly<Thresholds> = Object.freeze({
  suspicious_additions: 500,
  suspicious_deletions: 1000,
  max_additions_per_min: 100,
  max_deletions_per_min: 500,
  min_time_delta_seconds: 60,
});
