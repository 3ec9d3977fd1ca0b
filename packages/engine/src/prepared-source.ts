import type {
  AuthorshipLog,
  CommitRecord,
  PageDocument,
  RepositorySourceInfo,
  RepositoryStats,
  RequestCommits,
  WebsiteSourceInfo,
  OversizedFiles,
} from '@cadence-detect/plugin-sdk';
import type { AddedLineReadings, AssistantSetupFile } from '@cadence-detect/git-source';
import type { LineReadings } from './line-shares.js';

/**
 * A source made ready for the strategies: a clone's history read, or a page fetched and parsed.
 * `engine.analyze` acquires one from a request; the plugin testkit builds one by hand, so a plugin
 * runs through exactly the same engine in its unit tests.
 */
export interface PreparedRepository {
  readonly kind: 'repository';
  readonly info: RepositorySourceInfo;
  readonly commits: readonly CommitRecord[];
  readonly stats: RepositoryStats;
  /** Notes under refs/notes/ai by full commit hash, each cut at 16 KiB; none when absent. */
  readonly aiNotes?: ReadonlyMap<string, string>;
  /** The same notes read whole and parsed (those that are authorship logs). */
  readonly authorshipLogs?: ReadonlyMap<string, AuthorshipLog>;
  /** Squash commits' requests read from their head refs (RepositoryContext.requestCommits); absent when none. */
  readonly requestCommits?: ReadonlyMap<string, RequestCommits>;
  /**
   * The files of the tree at `info.headCommit` (full paths), where the source could list them:
   * suspicions then name which of their files remain (`files_at_head`). Absent when unknown.
   */
  readonly headPaths?: ReadonlySet<string>;
  /** Files counted as binary because a side was above the diff blob cap; absent when none. */
  readonly oversizedFiles?: OversizedFiles;
  /** Commits whose diff names a blob the repository lacks, and (at most 20 of) those files; absent when none. */
  readonly unreadable?: { readonly commits: number; readonly files: readonly string[] };
  /** Files at the head that set the project up for an assistant (git-source's readAssistantSetup); absent when none. */
  readonly assistantSetup?: readonly AssistantSetupFile[];
  /**
   * Only part of the history was read (a range, `--since`): the result then has no false-alarm
   * floor, since what a range leaves out says nothing about what came before.
   */
  readonly partialHistory?: boolean;
  diffExcerpt(hash: string, maxBytes: number, signal: AbortSignal): Promise<string>;
  /** Blames the tree at the head and reads rework (docs/lines.md); absent when lines are not counted (`linesSkipped` says why). */
  readLines?(signal: AbortSignal): Promise<LineReadings>;
  /**
   * What the strategies' added-lines readers returned, as soon as the whole history's one pass has
   * replayed (before the lines at the head are blamed); undefined when the pass failed. Absent for
   * a range or `--since`, and without lines.
   */
  addedLineReadings?(): Promise<AddedLineReadings | undefined>;
  readonly linesSkipped?: string;
  /** Removes what acquiring created (the clone); called after the job's last hook. */
  dispose(): Promise<void>;
}

export interface PreparedWebsite {
  readonly kind: 'website';
  readonly info: WebsiteSourceInfo;
  readonly document: PageDocument;
  /** A digest of the page body: part of the cache key, so a changed page misses. */
  readonly contentDigest: string;
  dispose(): Promise<void>;
}

export type PreparedSource = PreparedRepository | PreparedWebsite;
