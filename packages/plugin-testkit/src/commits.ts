import { createHash } from 'node:crypto';
import { computeStats, linkAuthorIntervals, uniqueAbbreviations } from '@cadence-detect/git-source';
import type { CommitFileChange, CommitRecord, RepositoryStats } from '@cadence-detect/plugin-sdk';

/** A commit described by what a test cares about; everything else gets a plausible default. */
export interface CommitSpec {
  /** Author date: a Date, an ISO string or Unix seconds. */
  readonly at: Date | string | number;
  readonly additions?: number;
  readonly deletions?: number;
  readonly author?: string;
  readonly email?: string;
  readonly subject?: string;
  readonly body?: string;
  readonly committer?: string;
  readonly committerEmail?: string;
  readonly files?: readonly CommitFileChange[];
  readonly merge?: boolean;
  readonly boundary?: boolean;
  /** A root commit (no parents). The first commit is a root unless `root: false`. */
  readonly root?: boolean;
  readonly hash?: string;
}

export function toUnixSeconds(at: Date | string | number): number {
  if (typeof at === 'number') return at;
  const ms = (at instanceof Date ? at : new Date(at)).getTime();
  if (Number.isNaN(ms)) throw new TypeError(`not a date: ${String(at)}`);
  return Math.floor(ms / 1000);
}

/**
 * Builds CommitRecords in the order given (oldest first), linking parents; each author's previous
 * commit time and the unique abbreviations come from the git source's own functions.
 */
export function makeCommits(specs: readonly CommitSpec[]): CommitRecord[] {
  const commits: Array<CommitRecord & { previousAuthorTime: number | null }> = [];
  specs.forEach((spec, index) => {
    const authorTime = toUnixSeconds(spec.at);
    const author = spec.author ?? 'Ada Lovelace';
    const email = spec.email ?? `${author.toLowerCase().replace(/\s+/g, '.')}@example.com`;
    const hash =
      spec.hash ??
      createHash('sha1')
        .update(`${index}:${author}:${authorTime}:${spec.subject ?? ''}`)
        .digest('hex');
    const previous = commits[commits.length - 1];
    const isRoot = spec.root ?? index === 0;
    const parents = isRoot || !previous ? [] : spec.merge ? [previous.hash, '0'.repeat(40)] : [previous.hash];
    const additions = spec.additions ?? 10;
    const deletions = spec.deletions ?? 0;
    const files = spec.files ?? [
      { path: `src/file-${index}.ts`, additions, deletions, binary: false, excluded: false },
    ];
    commits.push({
      hash,
      shortHash: hash.slice(0, 7),
      parents,
      authorName: author,
      authorEmail: email,
      authorTime,
      committerName: spec.committer ?? author,
      committerEmail: spec.committerEmail ?? email,
      committerTime: authorTime,
      subject: spec.subject ?? `commit ${index + 1}`,
      body: spec.body ?? '',
      additions,
      deletions,
      excludedAdditions: 0,
      excludedDeletions: 0,
      filesChanged: files.length,
      files,
      filesTruncated: false,
      isMerge: spec.merge ?? false,
      isBoundary: spec.boundary ?? false,
      previousAuthorTime: null,
    });
  });
  // The git source's own rule, not a copy: the same author's closest earlier author date.
  linkAuthorIntervals(commits);
  const abbreviations = uniqueAbbreviations(commits.map((c) => c.hash));
  return commits.map((c) => ({ ...c, shortHash: abbreviations.get(c.hash) ?? c.shortHash }));
}

/** The repository-wide statistics the git source computes for these commits. */
export function statsOf(commits: readonly CommitRecord[]): RepositoryStats {
  return computeStats(commits, commits);
}
