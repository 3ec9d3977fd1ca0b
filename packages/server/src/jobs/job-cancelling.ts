import { CadenceError } from '@cadence-detect/errors';
import type { Job } from './job.js';
import { isFinal } from './job.js';
import type { JobCancels } from './job-cancels.js';
import type { JobEventChannel } from './job-events.js';
import type { JobQueue } from './job-queue.js';
import type { JobRecords } from './job-records.js';
import type { JobStore } from './job-store.js';
import type { RunningControllers } from './running-controllers.js';

/** How long a cancel waits for a running job to unwind before answering with what the store holds. */
const CANCEL_WAIT_MS = 2000;

/** How long a cancel waits for an organization job's scan to stop its repository jobs and end. */
const SCAN_CANCEL_WAIT_MS = 10_000;

/** An organization job whose scan has not marked it alive for this long has no server running it. */
const ORPHAN_AFTER_MS = 45_000;

function silentSince(job: Job, before: number): boolean {
  return Date.parse((job.kind === 'organization' ? job.heartbeat_at : undefined) ?? job.created_at) < before;
}

/** How often a running job of a shared queue looks for a cancel its process may not have heard. */
const CANCEL_RECHECK_MS = 2000;

/**
 * Cancels, whichever process runs the job: a waiting job is taken off the queue and ended here; a
 * running one is aborted by the process running it (this one, or another told through JobCancels),
 * and the cancel answers once that job has unwound. `running` is this process's jobs, by id.
 */
export class JobCancelling {
  constructor(
    private readonly parts: {
      readonly store: JobStore;
      readonly queue: JobQueue;
      readonly events: JobEventChannel;
      readonly cancels: JobCancels;
      readonly records: JobRecords;
      readonly running: Pick<RunningControllers, 'find'>;
    },
  ) {}

  /** Hears cancels asked of any server and aborts the jobs running here; returns the function that stops listening. */
  listen(): () => void {
    return this.parts.cancels.listen((id, code) => this.parts.running.find(id)?.abort(new CadenceError(code)));
  }

  /** docs/http-api.md, POST /jobs/:id/cancel: the job cancelled; ERR_JOB_FINAL when it already ended; ERR_JOB_NOT_FOUND when unknown. */
  async cancel(id: string, reason: CadenceError = new CadenceError('ERR_CANCELLED'), waitMs?: number): Promise<Job> {
    const { store, queue, records, running, cancels } = this.parts;
    const job = await store.get(id);
    if (!job) throw new CadenceError('ERR_JOB_NOT_FOUND', { message: `No job ${id}` });
    if (isFinal(job.status)) throw new CadenceError('ERR_JOB_FINAL', { message: `Job ${id} is already ${job.status}` });
    // An organization job is never on the queue (its scan runs in a server): only its scan can stop it.
    if (job.kind !== 'organization' && (await queue.remove(id))) {
      const cancelled = await records.cancelWaiting(id, reason);
      if (!cancelled) throw new CadenceError('ERR_JOB_NOT_FOUND', { message: `No job ${id}` });
      return cancelled;
    }
    // The worker records the final state when the analysis unwinds, then publishes the job's end:
    // wait for that event (subscribed before the abort, so it cannot be missed), at most CANCEL_WAIT_MS.
    // An organization job unwinds its repository jobs first (each a cancel of its own): it gets longer.
    const ended = this.endOf(id, waitMs ?? (job.kind === 'organization' ? SCAN_CANCEL_WAIT_MS : CANCEL_WAIT_MS));
    const here = running.find(id);
    if (here) here.abort(reason);
    else await cancels.request(id, reason.code);
    await ended;
    const after = (await store.get(id)) ?? job;
    if (
      after.kind === 'organization' &&
      !isFinal(after.status) &&
      !here &&
      silentSince(after, Date.now() - ORPHAN_AFTER_MS)
    ) {
      // No server runs its scan any more (killed, not stopped): the cancel ends it here, and its
      // repository jobs still waiting or running with it (each a cancel of its own, as a scan does).
      const open = (after.children ?? []).filter(
        (child) => child.job_id && !isFinal(child.status as Job['status']) && child.status !== 'waiting',
      );
      // A child already ended or gone needs no cancel: the rest still get theirs.
      await Promise.all(
        open.flatMap((child) => (child.job_id ? [this.cancel(child.job_id, reason).catch(() => undefined)] : [])),
      );
      const ended = await records.cancelWaiting(id, reason);
      if (!ended) return after;
      const cancelled = new Set(open.map((child) => child.job_id));
      await store
        .update(id, (j) => {
          if (j.kind !== 'organization') return;
          j.children = (j.children ?? []).map((child) =>
            cancelled.has(child.job_id) ? { ...child, status: 'cancelled', error_code: reason.code } : child,
          );
        })
        // The organization job is cancelled already; its children list is best effort while the store is away.
        .catch(() => undefined);
      return (await store.get(id)) ?? ended;
    }
    return after;
  }

  /**
   * A job starting here: a cancel asked while no worker of it was listening (Redis: a late
   * subscription) aborts it at once, and on a shared queue, whose cancels travel by pub/sub that a
   * reconnecting subscriber misses, the remembered request is also read every few seconds while it
   * runs. Returns the function that stops looking.
   */
  async watch(id: string, controller: AbortController): Promise<() => void> {
    const { cancels, queue } = this.parts;
    const asked = await cancels.requested(id);
    if (asked) controller.abort(new CadenceError(asked));
    if (!queue.shared) return () => undefined;
    const recheck = setInterval(() => {
      void cancels.requested(id).then(
        (code) => {
          if (code && !controller.signal.aborted) controller.abort(new CadenceError(code));
        },
        () => undefined,
      );
    }, CANCEL_RECHECK_MS);
    return () => clearInterval(recheck);
  }

  /** Resolves when the job's `complete` or `error` event is published, or after `timeoutMs`. */
  private endOf(id: string, timeoutMs: number): Promise<void> {
    return new Promise((resolve) => {
      let unsubscribe = (): void => undefined;
      const done = (): void => {
        clearTimeout(timer);
        unsubscribe();
        resolve();
      };
      const timer = setTimeout(done, timeoutMs);
      unsubscribe = this.parts.events.subscribe(id, (event) => {
        if (event.event === 'complete' || event.event === 'error') done();
      });
    });
  }
}
