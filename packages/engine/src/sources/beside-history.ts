import {
  excludeMatcher,
  readAssistantSetup,
  type AssistantSetupFile,
  type GitBounds,
  type SharedAuthorshipNotes,
} from '@cadence-detect/git-source';
import type { AnalysisEvent, AuthorshipLog, CommitRecord, RequestCommits } from '@cadence-detect/plugin-sdk';
import type { EngineConfig } from '../engine-config.js';
import type { EngineLogger } from '../engine-logger.js';
import { readCarriedRequests } from './request-commits.js';

export interface BesideHistory {
  readonly aiNotes: ReadonlyMap<string, string>;
  readonly authorshipLogs: ReadonlyMap<string, AuthorshipLog>;
  readonly requestCommits: ReadonlyMap<string, RequestCommits>;
  readonly assistantSetup: readonly AssistantSetupFile[];
}

export interface BesideHistoryOptions {
  readonly dir: string;
  /** The analysed head (full commit id). */
  readonly rev: string;
  readonly notes: SharedAuthorshipNotes;
  /** The files at the head, when they could be listed. */
  readonly pathsAtHead: ReadonlySet<string> | null;
  readonly config: EngineConfig;
  readonly excludeFiles: readonly string[];
  readonly bounds: GitBounds;
  readonly signal: AbortSignal;
  readonly emit: (event: AnalysisEvent) => void;
  readonly logger: EngineLogger;
}

/**
 * What the repository says of the analysed commits besides their history: their Git AI notes,
 * the own commits of the squashed requests it keeps heads of, and the assistant setup files at the
 * head. Read once the history is known.
 */
export async function readBesideHistory(
  commits: readonly CommitRecord[],
  options: BesideHistoryOptions,
): Promise<BesideHistory> {
  const { dir, rev, signal } = options;
  // The AI notes of the analysed commits alone: a repository's other notes (an unmerged branch's,
  // a commit outside the range) are never read.
  const notes = await options.notes.read(new Set(commits.map((c) => c.hash)), signal);
  const authorshipLogs = new Map<string, AuthorshipLog>();
  for (const [commit, log] of notes.logs) if (typeof log !== 'string') authorshipLogs.set(commit, log);
  const requestCommits = await readCarriedRequests(dir, commits, {
    head: rev,
    maxRequests: options.config.limits.max_request_heads,
    isExcluded: excludeMatcher(options.excludeFiles),
    notes: options.notes,
    bounds: options.bounds,
    signal,
    logger: options.logger,
  });
  if (requestCommits.size > 0) {
    options.emit({
      event: 'fetch',
      message: `read the own commits of ${requestCommits.size} squashed ${requestCommits.size === 1 ? 'request' : 'requests'} from their head refs`,
    });
  }
  // The assistants the tree is set up for (reported, not scored): one git log of those files.
  const assistantSetup = options.pathsAtHead ? await readAssistantSetup(dir, rev, options.pathsAtHead, signal) : [];
  return { aiNotes: notes.excerpts, authorshipLogs, requestCommits, assistantSetup };
}
