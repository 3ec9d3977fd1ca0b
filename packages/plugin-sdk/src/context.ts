import type { CommitRecord, RepositoryStats, Thresholds } from './commit.js';
import type { AuthorshipLog } from './authorship-log.js';
import type { PluginConfigView } from './config-view.js';
import type { PageDocument } from './document.js';
import type { EventChannel } from './events.js';
import type { JobInfo, ReportOutcome } from './job.js';
import type { SquashJudgement } from './result.js';
import type { PluginLogger } from './logger.js';
import type { PluginOptions } from './options.js';

interface ContextBase<O extends object> {
  /** Aborted when the job is cancelled, times out or the server shuts down: stop work and reject. */
  readonly signal: AbortSignal;
  readonly logger: PluginLogger;
  readonly events: EventChannel;
  readonly config: PluginConfigView;
  /**
   * In a strategy's `analyze`: the options of the plugin that registered it. In hook taps
   * it is `{}`: a plugin reads its own there from `environment.options`, captured in `apply`.
   * Typed by the plugin's options schema in a strategy declared with it (defineStrategy).
   * @since 1.1
   */
  readonly options: O;
  /** Room for plugins to share per-job state, keyed by plugin name. */
  readonly scratch: Map<string, unknown>;
  /**
   * The job this analysis runs for, or null (the CLI, the testkit).
   * @since 1.3
   */
  readonly job: JobInfo | null;
  /**
   * Records a reporter's outcome on the job (`result.reports[]`), also after the analysis
   * has ended: a reporter starts its work in `report` and records when it is done. Never throws.
   * @since 1.3
   */
  recordReport(outcome: ReportOutcome): void;
  /**
   * Keeps this analysis's result out of the result cache, saying why: what the plugin added rests
   * on a failure that is usually brief (a provider that did not answer), so the next identical
   * analysis runs again instead of being answered with this result. Never throws. Absent from hosts
   * before 2.0 and from the `report` context of a result answered from the cache: call it as
   * `context.keepOutOfCache?.(reason)`. A call after the result was kept (a strategy past its
   * budget) changes nothing.
   * @since 2.0
   */
  keepOutOfCache?(reason: string): void;
}

/** A squashed request's own commits, as the repository keeps them under the request's head ref. */
export interface RequestCommits {
  /** The request's number, as the squash commit's subject names it (`(#N)`). */
  readonly number: number;
  /** Where its commits were read: `refs/pull/N/head`. */
  readonly ref: string;
  /** The request's commits the analysed branch does not hold, oldest first (at most 250). */
  readonly commits: readonly CommitRecord[];
  /** Their Git AI notes (`refs/notes/ai`), parsed, by full commit hash. */
  readonly authorshipLogs: ReadonlyMap<string, AuthorshipLog>;
}

export interface RepositorySourceInfo {
  /** The URL or path the job was asked to analyze. */
  readonly url: string;
  /** `owner/repo` where the URL says it, else the URL or the folder name. */
  readonly repo: string;
  readonly branch: string | null;
  /** The commit the analysis read history from. */
  readonly headCommit: string;
  /** For a push: the pushed range. */
  readonly range: { readonly before: string | null; readonly after: string } | null;
  readonly shallow: boolean;
  /**
   * A push that squashed a request, and whether its original commits are what is analyzed.
   * @since 1.3
   */
  readonly squash?: SquashJudgement;
}

export interface RepositoryContext<O extends object = PluginOptions> extends ContextBase<O> {
  readonly kind: 'repository';
  readonly source: RepositorySourceInfo;
  /** The analyzed commits, oldest first. */
  readonly commits: readonly CommitRecord[];
  readonly stats: RepositoryStats;
  readonly thresholds: Thresholds;
  /**
   * Git notes under `refs/notes/ai` (the Git AI Standard authorship log), by full commit
   * hash, each cut at a bounded length. Empty when the repository has none, which is the usual case.
   * @since 1.2
   */
  readonly aiNotes: ReadonlyMap<string, string>;
  /**
   * The same notes read whole and parsed (`parseAuthorshipLog`), by full commit hash: only the
   * analysed commits' logs that parse, so a long note keeps the metadata that names its tool. Read
   * these rather than parsing `aiNotes`, whose texts are cut at 16 KiB. A host before 1.16 leaves it out.
   * @since 1.16
   */
  readonly authorshipLogs?: ReadonlyMap<string, AuthorshipLog>;
  /**
   * The squash commits whose request the repository still holds, by the squash's full hash: the
   * request's own commits, read from its head ref (`refs/pull/N/head`).
   * What those commits say of who wrote them (an agent's account, a trailer, a note) says it of the
   * squash. Absent when no analysed squash has its request's head, and from hosts before 1.17.
   * @since 1.17
   */
  readonly requestCommits?: ReadonlyMap<string, RequestCommits>;
  /**
   * A bounded excerpt of one commit's diff (excluded files left out), for strategies and plugins that
   * need content. The clone lives until the job's last hook, so this works in every hook.
   */
  diffExcerpt(hash: string, maxBytes?: number): Promise<string>;
  /**
   * What this strategy's `addedLines` reader returned for each commit the line pass read, by full
   * hash. Absent for a strategy without a reader, and when the lines were not read (`--no-lines`,
   * a failure, a job short of time): a strategy must give a verdict without it.
   * @since 2.0
   */
  readonly addedLineReadings?: ReadonlyMap<string, number>;
}

export interface WebsiteSourceInfo {
  readonly url: string;
  /** The URL after redirects. */
  readonly finalUrl: string;
  readonly contentType: string;
  readonly bytes: number;
}

export interface WebsiteContext<O extends object = PluginOptions> extends ContextBase<O> {
  readonly kind: 'website';
  readonly source: WebsiteSourceInfo;
  readonly document: PageDocument;
}

export type AnalysisContext = RepositoryContext | WebsiteContext;
