import picomatch from '../vendor/picomatch.js';
import { CadenceError, redactCredentials, toCadenceError, itemAt } from '@cadence-detect/errors';
import { parseRepositoryUrl } from '@cadence-detect/git-source';
import type { Logger } from '@cadence-detect/logger';
import {
  aggregateOrganization,
  repositoriesFromForge,
  type RepositoryOutcome,
  type ScanTarget,
} from '@cadence-detect/organization';
import type { LoadedPlugin } from '@cadence-detect/plugin-loader';
import type { AssessmentBands, RepositoryResult } from '@cadence-detect/plugin-sdk';
import { isFinal, type Job, type OrganizationRequest } from '../jobs/job.js';
import type { JobManager } from '../jobs/job-manager.js';
import { ScanRecord } from './scan-record.js';

/** How often the scan reads its waiting repository jobs' records, in case an end event was missed. */
const RECHECK_MS = 2000;
/** How long a scan waits before offering a repository job again to a full queue. */
const QUEUE_FULL_WAIT_MS = 1000;
/** How long a cancelled repository job is waited for to unwind before the scan records it as last read. */
const UNWIND_WAIT_MS = 15_000;

export interface ScanParts {
  readonly jobs: JobManager;
  readonly plugins: () => readonly LoadedPlugin[];
  readonly log: Logger;
  readonly bands: AssessmentBands;
  /** Repository jobs of this scan waiting or running at once (`scans.max_queued_children`). */
  readonly maxInFlight: number;
  readonly allowLocalPaths: boolean;
}

/**
 * One organization job's scan, run by the server that accepted it: lists the repositories (the
 * forge plugin, or the request's list), feeds them to the shared queue a few at a time as ordinary
 * repository jobs (any worker on Redis runs them), follows each to its end, records the progress,
 * and once all have ended records the organization result. `signal` is cancel, the scan's time
 * limit and shutdown: the repository jobs still waiting or running are cancelled with it.
 */
export async function runOrganizationScan(
  parent: Job,
  request: OrganizationRequest,
  parts: ScanParts,
  signal: AbortSignal,
): Promise<void> {
  const { jobs } = parts;
  const targets = await listed(request, parts, signal);
  const outcomes = new Array<RepositoryOutcome | undefined>(targets.length);
  const record = new ScanRecord(
    (progress, children) => jobs.recordScanProgress(parent.id, progress, children),
    targets.map((t) => t.repository),
  );
  await record.flush();
  jobs.publish(parent.id, { event: 'listed', type: 'listed', job_id: parent.id, total: targets.length });
  if (targets.length === 0)
    throw new CadenceError('ERR_INVALID_SOURCE', {
      message: `no repositories to scan in ${request.url}${request.match ? ` matching ${request.match}` : ''}`,
    });

  const follower = new ChildFollower(jobs, signal);
  try {
    await feedAndFollow({ parentId: parent.id, request, parts, signal, targets, outcomes, record, follower });
  } finally {
    // Whatever ended the scan early (cancel, its time limit, shutdown) ends its repository jobs too.
    // They end `cancelled` whichever way the organization job ended, and are recorded so.
    const why = signal.reason instanceof CadenceError ? signal.reason.code : 'an error';
    const ended = await follower.cancelRemaining(
      new CadenceError('ERR_CANCELLED', { message: `Its organization job ${parent.id} stopped (${why})` }),
    );
    for (const { job, index } of ended)
      recordChild(parts, record, parent.id, index, job, outcomeOf(job, itemAt(targets, index)));
    await record.flush();
  }
  await completeScan(parent.id, request, parts, targets, outcomes);
}

interface ScanState {
  readonly parentId: string;
  readonly request: OrganizationRequest;
  readonly parts: ScanParts;
  readonly signal: AbortSignal;
  readonly targets: readonly ScanTarget[];
  readonly outcomes: (RepositoryOutcome | undefined)[];
  readonly record: ScanRecord;
  readonly follower: ChildFollower;
}

/** Feeds the repository jobs to the queue a few at a time and records each as it ends, until all have. */
async function feedAndFollow(state: ScanState): Promise<void> {
  const { parentId, request, parts, signal, targets, outcomes, record, follower } = state;
  let next = 0;
  let done = 0;
  while (done < targets.length) {
    while (follower.size < parts.maxInFlight && next < targets.length) {
      const index = next;
      const target = itemAt(targets, index);
      if (target.refused) {
        next++;
        outcomes[index] = { repository: target.repository, url: target.url, error: target.refused };
        done++;
        recordChild(parts, record, parentId, index, null, outcomes[index]);
        continue;
      }
      const child = await submitChild(parentId, target, request, parts, signal);
      if (!child) break; // the queue is full: wait for one of ours to end, or a moment
      next++;
      follower.follow(child, index);
      Object.assign(itemAt(record.children, index), { job_id: child, status: 'queued' });
      record.changed();
    }
    if (done >= targets.length) break;
    const ended = await follower.nextEnd(follower.size === 0 ? QUEUE_FULL_WAIT_MS : RECHECK_MS);
    for (const { job, index } of ended) {
      outcomes[index] = outcomeOf(job, itemAt(targets, index));
      done++;
      recordChild(parts, record, parentId, index, job, outcomes[index]);
    }
  }
}

/** The organization result from every repository's outcome, recorded as the job's end. */
async function completeScan(
  parentId: string,
  request: OrganizationRequest,
  parts: ScanParts,
  targets: readonly ScanTarget[],
  outcomes: readonly (RepositoryOutcome | undefined)[],
): Promise<void> {
  const org = aggregateOrganization(
    request.url,
    outcomes.map(
      (o, i) =>
        o ?? {
          repository: itemAt(targets, i).repository,
          url: itemAt(targets, i).url,
          error: { code: 'ERR_INTERNAL', message: 'no outcome' },
        },
    ),
    { bands: parts.bands },
  );
  // Its end waits out a store outage, as a repository job's does, rather than staying `running`.
  await parts.jobs.organizationCompleted(parentId, org);
  parts.log.info('organization scan completed', {
    job_id: parentId,
    organization: org.organization,
    analyzed: org.counts.analyzed,
    failed: org.counts.failed,
  });
}

async function listed(request: OrganizationRequest, parts: ScanParts, signal: AbortSignal): Promise<ScanTarget[]> {
  let targets: ScanTarget[];
  if (request.forge !== undefined && request.owner !== undefined) {
    const filter = { includeForks: request.include_forks === true, includeArchived: request.include_archived === true };
    const fromForge = await repositoriesFromForge(
      parts.plugins(),
      { forge: request.forge, owner: request.owner },
      filter,
      parts.log,
      signal,
    );
    // What a forge lists passes the URL rules like any request's URL before anything clones it.
    targets = fromForge.map((t) => {
      // Never a local path, whatever security.allow_local_paths says: the forge chose these, not the operator.
      const { refused } = checkedUrl(t.url, false);
      return refused ? { ...t, refused } : t;
    });
  } else {
    targets = (request.repositories ?? []).map((url) => ({
      repository: redactCredentials(url),
      url,
      ...checkedUrl(url, parts.allowLocalPaths),
    }));
  }
  if (request.match) {
    const matches = picomatch(request.match, { nocase: true, dot: true });
    targets = targets.filter((t) => matches(t.repository));
  }
  return targets;
}

/**
 * A listed URL under the URL rules: a list's entry named by its repository, or the entry refused
 * with its code (reported, never queued). A forge's own name for a repository is kept.
 */
function checkedUrl(
  url: string,
  allowLocalPaths: boolean,
): { repository?: string; refused?: { code: string; message: string } } {
  try {
    const repo = parseRepositoryUrl(url, { allowLocalPaths }).repo;
    return repo ? { repository: repo } : {};
  } catch (error) {
    const failure = toCadenceError(error);
    return { refused: { code: failure.code, message: failure.message } };
  }
}

/** A repository job for `target`, or null when the queue is full (tried again later). */
async function submitChild(
  parentId: string,
  target: ScanTarget,
  request: OrganizationRequest,
  parts: ScanParts,
  signal: AbortSignal,
): Promise<string | null> {
  signal.throwIfAborted();
  try {
    const job = await parts.jobs.submit({
      request: {
        kind: 'repository',
        url: target.url,
        branch: null,
        authors: 'all',
        ...(request.since ? { since: request.since } : {}),
      },
      source: 'api',
      repo: target.repository,
      branch: null,
      parentId,
      ...(target.forge && target.authorization ? { gitCredentials: target.forge } : {}),
    });
    return job.id;
  } catch (error) {
    // A full queue, or the job store away for a moment (Redis): nothing was recorded, try again later.
    if (
      error instanceof CadenceError &&
      (error.code === 'ERR_QUEUE_FULL' || error.code === 'ERR_DATABASE_CONNECTION_FAILED')
    )
      return null;
    throw error;
  }
}

function outcomeOf(job: Job | undefined, target: ScanTarget): RepositoryOutcome {
  if (job?.status === 'completed' && job.kind !== 'organization' && job.result?.source_type === 'git') {
    // The organization result reads counts, authors and months: the lists of findings are left behind.
    const result = { ...job.result, detections: [], suspicions: [] } as RepositoryResult;
    return { repository: target.repository, url: target.url, result };
  }
  return {
    repository: target.repository,
    url: target.url,
    error: { code: job?.error_code ?? 'ERR_INTERNAL', message: job?.error ?? 'the repository job is gone' },
  };
}

/** One repository ended (or was refused): counted, recorded soon, and told to the job's followers at once. */
function recordChild(
  parts: ScanParts,
  record: ScanRecord,
  parentId: string,
  index: number,
  job: Job | null | undefined,
  outcome: RepositoryOutcome,
): void {
  const status = job?.status ?? 'failed';
  Object.assign(itemAt(record.children, index), { status, error_code: outcome.error?.code ?? null });
  record.progress.done++;
  if (outcome.error !== undefined) record.progress.failed++;
  record.changed();
  const { done, total } = record.progress;
  parts.jobs.publish(parentId, {
    event: 'repository',
    type: 'repository',
    job_id: parentId,
    repository: outcome.repository,
    repository_job_id: job?.id ?? null,
    status,
    error_code: outcome.error?.code ?? null,
    ...(outcome.result ? { assessment: outcome.result.assessment, ai_share: outcome.result.ai_share } : {}),
    done,
    total,
  });
}

/**
 * The scan's repository jobs until each ends: told by their end events (from any server, through
 * the event channel) and, in case one was missed, by reading their records every few seconds.
 */
class ChildFollower {
  private readonly following = new Map<string, { index: number; unsubscribe: () => void }>();
  private readonly ended = new Set<string>();
  private wake: (() => void) | null = null;

  constructor(
    private readonly jobs: JobManager,
    private readonly signal: AbortSignal,
  ) {}

  get size(): number {
    return this.following.size;
  }

  follow(id: string, index: number): void {
    const unsubscribe = this.jobs.subscribe(id, (event) => {
      if (event.event === 'complete' || event.event === 'error') this.markEnded(id);
    });
    this.following.set(id, { index, unsubscribe });
  }

  /** The jobs that ended since the last call (at least one, unless `waitMs` passed first). */
  async nextEnd(waitMs: number): Promise<{ job: Job | undefined; index: number }[]> {
    if (this.ended.size === 0) {
      await new Promise<void>((resolve, reject) => {
        const stop = (): void => {
          clearTimeout(timer);
          this.signal.removeEventListener('abort', aborted);
          this.wake = null;
        };
        const timer = setTimeout(() => {
          stop();
          resolve();
        }, waitMs);
        const aborted = (): void => {
          stop();
          // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- The scan's own reason (its deadline, its cancellation) is what ends it, as the caller reads it
          reject(this.signal.reason);
        };
        this.signal.addEventListener('abort', aborted, { once: true });
        this.wake = () => {
          stop();
          resolve();
        };
        if (this.signal.aborted) aborted();
      });
      // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- Set in a callback TypeScript does not follow
      if (this.ended.size === 0) await this.recheck();
    }
    const out: { job: Job | undefined; index: number }[] = [];
    for (const id of [...this.ended]) {
      const entry = this.following.get(id);
      this.ended.delete(id);
      if (!entry) continue;
      // The store away for a moment: the next recheck reads it again rather than the scan failing.
      const read = await this.jobs.read(id).then(
        (job) => ({ job }),
        () => null,
      );
      if (!read) continue;
      const { job } = read;
      // An end event published before the record was written cannot happen (records first), but a
      // record read too early is taken again on the next recheck rather than counted unfinished.
      if (job && !isFinal(job.status)) continue;
      entry.unsubscribe();
      this.following.delete(id);
      out.push({ job, index: entry.index });
    }
    return out;
  }

  /** Cancels the jobs still followed; returns each as it ended (or as the store holds it). */
  async cancelRemaining(reason: CadenceError): Promise<{ job: Job | undefined; index: number }[]> {
    const entries = [...this.following.entries()];
    for (const [, { unsubscribe }] of entries) unsubscribe();
    this.following.clear();
    return Promise.all(
      entries.map(async ([id, { index }]) => {
        // A cancelled job unwinds before its end is recorded (a clone being stopped on a loaded machine
        // takes a while): waited for up to UNWIND_WAIT_MS, so the scan's record says how it ended.
        // One that cannot be cancelled (already ended) is read as it is; one that cannot be read is unknown.
        const job = await this.jobs
          .cancel(id, reason, UNWIND_WAIT_MS)
          .catch(() => this.jobs.read(id).catch(() => undefined));
        return { job, index };
      }),
    );
  }

  private markEnded(id: string): void {
    this.ended.add(id);
    this.wake?.();
  }

  private async recheck(): Promise<void> {
    for (const id of this.following.keys()) {
      const job = await this.jobs.read(id).catch(() => 'unread' as const);
      if (job !== 'unread' && (!job || isFinal(job.status))) this.ended.add(id);
    }
  }
}
