import { CadenceError } from '@cadence-detect/errors';
import type { Logger } from '@cadence-detect/logger';
import { retrying } from '@cadence-detect/forge-kit';

/** How a job's outcome waits for a job store that is away: asked again this often, for this long. */
export interface OutageWait {
  readonly everyMs: number;
  readonly forMs: number;
}

/** Every 2 s for up to 5 minutes: long enough for Redis to restart or fail over. */
export const STORE_OUTAGE_WAIT: OutageWait = { everyMs: 2000, forMs: 5 * 60_000 };

/** Whether a store call failed because the store cannot be reached (redis-connection.ts raises it). */
export function isStoreOutage(error: unknown): boolean {
  return CadenceError.is(error, 'ERR_DATABASE_CONNECTION_FAILED');
}

/**
 * A job's end is written even when the store is away for a while (Redis restarting): the write is
 * retried at a steady pace (not backing off: the store's return should be seen within `everyMs`)
 * until `forMs` has passed, rather than leaving the job `running` for ever. Other errors, and a
 * store still away after that, propagate as thrown.
 */
export function untilRecorded<T>(
  write: () => Promise<T>,
  log: Logger,
  jobId: string,
  wait: OutageWait = STORE_OUTAGE_WAIT,
): Promise<T> {
  const deadline = Date.now() + wait.forMs;
  let warned = false;
  return retrying(() => write(), {
    retries: Number.POSITIVE_INFINITY,
    initialDelayMs: wait.everyMs,
    retryable: (error) => {
      if (!isStoreOutage(error) || Date.now() >= deadline) return false;
      if (!warned) log.warn('job outcome waits for the job store', { job_id: jobId });
      warned = true;
      return { afterMs: wait.everyMs };
    },
  });
}
