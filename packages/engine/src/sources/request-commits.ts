import {
  readRequestCommits,
  squashSubjects,
  DEFAULT_MAX_REQUESTS,
  type GitBounds,
  type SharedAuthorshipNotes,
} from '@cadence-detect/git-source';
import { errorMessage } from '@cadence-detect/errors';
import type { AuthorshipLog, CommitRecord, RequestCommits } from '@cadence-detect/plugin-sdk';
import type { EngineLogger } from '../engine-logger.js';

export interface CarriedRequestOptions {
  /** The analysed head (full commit id). */
  readonly head: string;
  readonly maxRequests: number | undefined;
  readonly isExcluded: (path: string) => boolean;
  readonly notes: SharedAuthorshipNotes;
  readonly bounds: GitBounds;
  readonly signal: AbortSignal;
  readonly logger: EngineLogger;
}

/**
 * The analysed squash commits whose request's own commits the repository holds under the request's
 * head ref, with those commits' notes: what they say of who wrote them is said of the squash.
 * Empty when no squash names a request the repository has a head of.
 */
export async function readCarriedRequests(
  dir: string,
  commits: readonly CommitRecord[],
  options: CarriedRequestOptions,
): Promise<ReadonlyMap<string, RequestCommits>> {
  const squashes = squashSubjects(commits);
  if (squashes.length === 0) return new Map();
  let read: Awaited<ReturnType<typeof readRequestCommits>>;
  let notes: Awaited<ReturnType<SharedAuthorshipNotes['read']>>;
  try {
    read = await readRequestCommits(dir, {
      head: options.head,
      squashes,
      maxRequests: options.maxRequests ?? DEFAULT_MAX_REQUESTS,
      excludeFiles: options.isExcluded,
      bounds: options.bounds,
      signal: options.signal,
    });
    if (read.size === 0) return new Map();
    const requestCommits = new Set<string>();
    for (const request of read.values()) for (const commit of request.commits) requestCommits.add(commit.hash);
    notes = await options.notes.read(requestCommits, options.signal);
  } catch (error) {
    // Evidence beside the history, not the history: without it the squashes are judged as themselves.
    if (options.signal.aborted) throw error;
    options.logger.warn('request heads not read', { reason: errorMessage(error).slice(0, 200) });
    return new Map();
  }
  const carried = new Map<string, RequestCommits>();
  for (const [squash, request] of read) {
    const authorshipLogs = new Map<string, AuthorshipLog>();
    for (const commit of request.commits) {
      const log = notes.logs.get(commit.hash);
      if (log !== undefined && typeof log !== 'string') authorshipLogs.set(commit.hash, log);
    }
    carried.set(squash, { ...request, authorshipLogs });
  }
  return carried;
}
