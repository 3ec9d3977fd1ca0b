import { Queue, WaitingError, Worker } from 'bullmq';
import { LRUCache } from 'lru-cache';
import type { Logger } from '@cadence-detect/logger';
import type { JobQueue, JobRunner } from '../../jobs/job-queue.js';
import { unavailable } from './redis-connection.js';
import { TurnBatch } from './turn-batch.js';

/** The longest wait between a worker's tries to reach Redis again: its reconnects and its fetches. */
export const WORKER_RETRY_DELAY_MS = 2000;
export interface BullJobQueueOptions {
  readonly url: string;
  readonly prefix: string;
  readonly capacity: number;
  /** A worker silent this long loses its job (BullMQ's lock duration). */
  readonly stallTimeoutMs: number;
  readonly logger: Logger;
}

const QUEUE_NAME = 'analysis';
/** How long a waiting count answers hasRoom (see there). */
const ROOM_RECHECK_MS = 250;
/** A connection reconnecting to a Redis that just came back can wait for ever on a polite close. */
const CLOSE_WAIT_MS = 3000;

async function closeWithin(part: Worker | Queue, ms: number): Promise<void> {
  if ((await within(part.close(), ms)) === 'late') await within(part.disconnect(), ms);
}

/** Waits for `work` at most `ms`; a close that never ends must not hold a shutdown. */
async function within(work: Promise<unknown>, ms: number): Promise<'done' | 'late'> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), ms)));
  const outcome = await Promise.race([
    work.then(
      () => 'done' as const,
      () => 'done' as const,
    ),
    late,
  ]);
  clearTimeout(timer);
  return outcome;
}
/** Failed jobs a worker looks through per sweep for lost workers (newest first). */
const LOST_SWEEP_JOBS = 100;
/** The message BullMQ fails a job with once it stalled more often than maxStalledCount allows. */
const STALLED = /stalled more than allowable limit/i;

/**
 * The job queue on BullMQ: waiting ids live in Redis, any server or `cadence worker` process runs
 * them. A worker renews its lock on the job while it runs; when it dies (SIGKILL, lost host), the
 * stalled-job check puts the job back once (maxStalledCount 1) and fails it the second time, which
 * the job manager records as ERR_WORKER_LOST. The job's state lives in the job store, not in BullMQ:
 * its jobs carry only our id and are removed when done.
 */
export class BullJobQueue implements JobQueue {
  readonly shared = true;
  private readonly queue: Queue;
  private workerLost: ((id: string) => void) | null = null;
  private lostSweep: NodeJS.Timeout | null = null;
  /** Lost jobs already reported by this process: each sweep sees them again until they age out. */
  private readonly reportedLost = new LRUCache<string, true>({ max: 10 * LOST_SWEEP_JOBS });
  private worker: Worker | null = null;
  private readonly log: Logger;
  private closing = false;
  /**
   * For every connection BullMQ makes (its duplicates copy it): reconnect quickly while running,
   * never once closing, so that no connection outlives `close` retrying a Redis that is gone.
   */
  private readonly retryStrategy = (attempt: number): number | null =>
    this.closing ? null : Math.min(100 * attempt, WORKER_RETRY_DELAY_MS);

  constructor(private readonly options: BullJobQueueOptions) {
    this.log = options.logger.child('queue');
    const prefix = `${options.prefix}:bull`;
    this.queue = new Queue(QUEUE_NAME, {
      prefix,
      connection: {
        url: options.url,
        enableOfflineQueue: false,
        maxRetriesPerRequest: 1,
        connectionName: 'cadence-queue',
        retryStrategy: this.retryStrategy,
      },
      defaultJobOptions: { removeOnComplete: true, removeOnFail: { count: 1000 }, attempts: 1 },
    });
    this.queue.on('error', (error) => this.log.warn('queue connection', { error: String(error) }));
  }

  /** The BullMQ queue itself, for the queue dashboard. */
  get bullQueue(): Queue {
    return this.queue;
  }

  /**
   * Adds the job. The capacity is checked by the job manager just before (`hasRoom`), once per
   * submit: with many servers sharing the queue the bound is approximate either way, and a second
   * count here would cost every webhook another round trip. The adds of one event-loop turn go to
   * Redis together, in one write (BullMQ's addBulk), as the job store's creates do (TurnBatch).
   */
  async offer(id: string): Promise<boolean> {
    await this.adds.add(id).catch(unavailable);
    this.offeredSinceCount++;
    return true;
  }

  private readonly adds = new TurnBatch<string, true>(async (ids) => {
    await this.queue.addBulk(ids.map((id) => ({ name: 'analyze', data: { id }, opts: { jobId: id } })));
    return ids.map(() => true as const);
  });

  async remove(id: string): Promise<boolean> {
    // 0 when the job is locked by a worker (running) or already gone: then it is not waiting.
    const removed = await this.queue.remove(id).catch(unavailable);
    return removed === 1;
  }

  async holds(id: string): Promise<boolean> {
    // 'unknown' once removed: BullMQ drops finished jobs (removeOnComplete), and then the job store says it ended.
    return (await this.queue.getJobState(id).catch(unavailable)) !== 'unknown';
  }

  async depth(): Promise<number> {
    return this.queue.getWaitingCount().catch(unavailable);
  }

  /**
   * Room for one more: with a waiting count read within the last 250 ms, plus the jobs this server
   * added since, clearly below the capacity, no need to ask Redis again (a count per webhook was one
   * round trip in six); anywhere near it, the count is read afresh, so a full queue is still refused
   * exactly as far as this server can tell (with several servers the bound is approximate anyway).
   */
  async hasRoom(): Promise<boolean> {
    const counted = this.counted;
    if (
      counted &&
      Date.now() - counted.at < ROOM_RECHECK_MS &&
      counted.waiting + this.offeredSinceCount < this.options.capacity - 1
    )
      return true;
    const waiting = await this.depth();
    this.counted = { at: Date.now(), waiting };
    this.offeredSinceCount = 0;
    return waiting < this.options.capacity;
  }

  private counted: { at: number; waiting: number } | null = null;
  private offeredSinceCount = 0;

  consume(concurrency: number, run: JobRunner): void {
    const interval = Math.max(500, Math.floor(this.options.stallTimeoutMs / 2));
    this.lostSweep = setInterval(() => void this.sweepLostWorkers(), interval);
    this.lostSweep.unref();
    this.worker = new Worker(
      QUEUE_NAME,
      async (job, token) => {
        const outcome = await run(String((job.data as { id: unknown }).id));
        if (outcome === 'hand-back') {
          await job.moveToWait(token);
          throw new WaitingError();
        }
      },
      {
        prefix: `${this.options.prefix}:bull`,
        connection: {
          url: this.options.url,
          maxRetriesPerRequest: null,
          connectionName: 'cadence-worker',
          retryStrategy: this.retryStrategy,
        },
        concurrency,
        // BullMQ waits 15 s after a failed fetch (Redis away) before the next: a worker would then
        // take the queue up again up to 30 s after Redis is back. As quick as reconnecting instead.
        runRetryDelay: WORKER_RETRY_DELAY_MS,
        lockDuration: this.options.stallTimeoutMs,
        stalledInterval: interval,
        maxStalledCount: 1,
      },
    );
    this.worker.on('error', (error) => this.log.warn('worker connection', { error: String(error) }));
  }

  async stop(): Promise<void> {
    // Waits for the running jobs' processors to return (the job manager aborts them after the grace period).
    await this.worker?.close();
  }

  async drain(): Promise<string[]> {
    // Waiting jobs stay in Redis for the other workers.
    return [];
  }

  /**
   * BullMQ fails a job that stalled too often inside its stalled-job check, which runs in the
   * processes that run jobs, and says so on its event stream and in the failed set. Those processes
   * look through the newest failed jobs as often as the check runs, rather than read the event
   * stream: every added job writes two events to it, and reading them all cost a worker more per
   * webhook than the server's own work. Each lost job is recorded by every worker process, which is
   * harmless: only the first write finds the job unfinished.
   */
  onWorkerLost(listener: (id: string) => void): void {
    this.workerLost = listener;
  }

  private async sweepLostWorkers(): Promise<void> {
    if (!this.workerLost || this.closing) return;
    try {
      for (const job of await this.queue.getFailed(0, LOST_SWEEP_JOBS - 1)) {
        // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- BullMQ's list may hold a job removed meanwhile (undefined), and a job without its reason
        if (!job?.id || this.reportedLost.has(job.id) || !STALLED.test(job.failedReason ?? '')) continue;
        this.reportedLost.set(job.id, true);
        this.workerLost(job.id);
      }
    } catch (error) {
      // Redis away: the next sweep looks again.
      this.log.debug('lost-worker sweep', { error: String(error) });
    }
  }

  async close(): Promise<void> {
    this.closing = true;
    if (this.lostSweep) clearInterval(this.lostSweep);
    const parts = [this.worker, this.queue].filter((p): p is Worker | Queue => p !== null);
    await Promise.allSettled(parts.map((part) => closeWithin(part, CLOSE_WAIT_MS)));
  }
}
