import { Queue, Worker } from 'bullmq';
import type { Logger } from '@cadence-detect/logger';
import type { ScanTimerFactory } from '../../scans/scan-schedule.js';
import { WORKER_RETRY_DELAY_MS } from './bull-job-queue.js';

const QUEUE_NAME = 'scan-schedule';
/** A close that never ends (Redis away) must not hold a shutdown. */
const CLOSE_WAIT_MS = 3000;

async function closeWithin(part: Queue | Worker): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), CLOSE_WAIT_MS)));
  const outcome = await Promise.race([
    part.close().then(
      () => 'done' as const,
      () => 'done' as const,
    ),
    late,
  ]);
  clearTimeout(timer);
  // Giving up on a connection that never came: nothing is left to tell.
  if (outcome === 'late') await part.disconnect().catch(() => undefined);
}

/**
 * `scans.schedule` on Redis: one BullMQ job scheduler per target (its id is the target, so every
 * server that starts upserts the same one), and a worker in each server; BullMQ hands each firing
 * to one of them. Schedulers whose target left the configuration are removed. Connections give up
 * quickly while Redis is away and never once closing, as the analysis queue's do.
 */
export function bullScanTimers(url: string, prefix: string, logger: Logger): ScanTimerFactory {
  const log = logger.child('scan-schedule');
  return async (entries, fire, stop) => {
    let closing = false;
    const retryStrategy = (attempt: number): number | null => (closing ? null : Math.min(100 * attempt, 2000));
    const queue = new Queue(QUEUE_NAME, {
      prefix: `${prefix}:bull`,
      connection: {
        url,
        enableOfflineQueue: false,
        maxRetriesPerRequest: 1,
        connectionName: 'cadence-scan-schedule',
        retryStrategy,
      },
      defaultJobOptions: { removeOnComplete: true, removeOnFail: { count: 100 } },
    });
    queue.on('error', (error) => log.warn('schedule connection', { error: String(error) }));
    let worker: Worker | null = null;
    const close = async (): Promise<void> => {
      closing = true;
      await Promise.allSettled([worker ? closeWithin(worker) : null, closeWithin(queue)]);
    };
    // A stop during setup closes the queue (its waitUntilReady then fails) and so ends the setup.
    const onStop = (): void => void close();
    stop.addEventListener('abort', onStop, { once: true });
    const stopped = (): void => {
      if (stop.aborted) throw new Error('the server stopped before the schedule was set up');
    };
    try {
      stopped();
      await queue.waitUntilReady();
      stopped();
      await upsertSchedulers(queue, entries);
      stopped();
      if (entries.length > 0) {
        worker = scheduleWorker(url, prefix, retryStrategy, fire);
        worker.on('error', (error) => log.warn('schedule worker', { error: String(error) }));
      }
    } catch (error) {
      stop.removeEventListener('abort', onStop);
      await close();
      throw error;
    }
    stop.removeEventListener('abort', onStop);
    return { close };
  };
}

type ScheduleEntries = Parameters<ScanTimerFactory>[0];

/** One scheduler per target, the same id on every server; those whose target left are removed. */
async function upsertSchedulers(queue: Queue, entries: ScheduleEntries): Promise<void> {
  const wanted = new Set(entries.map((e) => e.target));
  for (const scheduler of await queue.getJobSchedulers()) {
    if (scheduler.key && !wanted.has(scheduler.key)) await queue.removeJobScheduler(scheduler.key);
  }
  for (const entry of entries) {
    await queue.upsertJobScheduler(
      entry.target,
      { every: entry.everyMs },
      { name: 'scan', data: { target: entry.target } },
    );
  }
}

/** The worker BullMQ hands each firing to. Its blocking connection waits by design (maxRetriesPerRequest null, as BullMQ requires). */
function scheduleWorker(
  url: string,
  prefix: string,
  retryStrategy: (attempt: number) => number | null,
  fire: Parameters<ScanTimerFactory>[1],
): Worker {
  return new Worker(
    QUEUE_NAME,
    async (job) => {
      await fire(String((job.data as { target?: unknown }).target));
    },
    {
      prefix: `${prefix}:bull`,
      connection: { url, maxRetriesPerRequest: null, connectionName: 'cadence-scan-schedule-worker', retryStrategy },
      concurrency: 1,
      // As the job queue's worker: back at work within a reconnect of Redis returning, not 15 s.
      runRetryDelay: WORKER_RETRY_DELAY_MS,
    },
  );
}
