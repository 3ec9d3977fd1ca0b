import { Queue, Worker } from 'bullmq';
import type { Logger } from '@cadence-detect/logger';
import type { ScanTimerFactory } from '../../scans/scan-schedule.js';

const QUEUE_NAME = 'scan-schedule';

/**
 * `scans.schedule` on Redis: one BullMQ job scheduler per target (its id is the target, so every
 * server that starts upserts the same one), and a worker in each server; BullMQ hands each firing
 * to one of them. Schedulers whose target left the configuration are removed.
 */
export function bullScanTimers(url: string, prefix: string, logger: Logger): ScanTimerFactory {
  const log = logger.child('scan-schedule');
  return async (entries, fire) => {
    const connection = { url, maxRetriesPerRequest: null, connectionName: 'cadence-scan-schedule' };
    const queue = new Queue(QUEUE_NAME, { prefix: `${prefix}:bull`, connection, defaultJobOptions: { removeOnComplete: true, removeOnFail: { count: 100 } } });
    queue.on('error', (error) => log.warn('schedule connection', { error: String(error) }));
    const wanted = new Set(entries.map((e) => e.target));
    for (const scheduler of await queue.getJobSchedulers()) {
      if (scheduler.key && !wanted.has(scheduler.key)) await queue.removeJobScheduler(scheduler.key);
    }
    for (const entry of entries) {
      await queue.upsertJobScheduler(entry.target, { every: entry.everyMs }, { name: 'scan', data: { target: entry.target } });
    }
    const worker = entries.length === 0 ? null : new Worker(QUEUE_NAME, async (job) => {
      await fire(String((job.data as { target?: unknown }).target));
    }, { prefix: `${prefix}:bull`, connection, concurrency: 1 });
    worker?.on('error', (error) => log.warn('schedule worker', { error: String(error) }));
    return {
      async close() {
        await Promise.allSettled([worker?.close(), queue.close()]);
      },
    };
  };
}
