import { itemAt } from '@cadence-detect/errors';
import type { Redis } from 'ioredis';
import type { Logger } from '@cadence-detect/logger';
import { isEndEvent, type JobEvent, type JobEventChannel } from '../../jobs/job-events.js';

/** Events kept per job, and for how long after its last one: enough to follow any job from its start. */
const MAX_EVENTS = 5000;
const KEEP_SECONDS = 3600;
const BLOCK_MS = 5000;

/**
 * Job events across processes on Redis streams, one stream per job: a worker appends, and each
 * server reads the streams of the jobs its clients follow with one blocking XREAD. Because a stream
 * is a log, a subscriber reads the job's events from its first: none is lost between subscribing
 * and the job's start, whichever process runs it.
 */
export class RedisJobEventChannel implements JobEventChannel {
  private readonly subscriptions = new Map<string, { listeners: Set<(event: JobEvent) => void>; last: string }>();
  private readerId: number | null = null;
  private reading = false;
  private closed = false;
  private wake: (() => void) | null = null;

  constructor(
    private readonly command: Redis,
    private readonly reader: Redis,
    private readonly prefix: string,
    private readonly logger: Logger,
  ) {
    // A reconnected reader is a new client: its id is what CLIENT UNBLOCK needs.
    reader.on('ready', () => void this.learnReaderId());
  }

  private key(jobId: string): string {
    return `${this.prefix}:events:${jobId}`;
  }

  publish(jobId: string, event: JobEvent): void {
    const key = this.key(jobId);
    this.command
      .multi()
      .xadd(key, 'MAXLEN', '~', MAX_EVENTS, '*', 'e', JSON.stringify(event))
      .expire(key, KEEP_SECONDS)
      .exec()
      .catch((error: unknown) =>
        this.logger.warn('job event not published', { job_id: jobId, event: event.event, error: String(error) }),
      );
  }

  subscribe(jobId: string, listener: (event: JobEvent) => void): () => void {
    let subscription = this.subscriptions.get(jobId);
    if (!subscription) {
      subscription = { listeners: new Set(), last: '0' };
      this.subscriptions.set(jobId, subscription);
    }
    subscription.listeners.add(listener);
    this.interruptRead();
    if (!this.reading) void this.readLoop();
    return () => {
      subscription.listeners.delete(listener);
      if (subscription.listeners.size === 0 && this.subscriptions.get(jobId) === subscription)
        this.subscriptions.delete(jobId);
    };
  }

  async close(): Promise<void> {
    this.closed = true;
    this.interruptRead();
  }

  private async learnReaderId(): Promise<void> {
    this.readerId = Number(await this.reader.client('ID').catch(() => null)) || null;
  }

  /** Ends the current blocking read so that the next one includes a new subscription. */
  private interruptRead(): void {
    this.wake?.();
    if (this.reading && this.readerId !== null)
      // A read that cannot be interrupted ends on its own timeout and picks up the subscription then.
      void this.command.client('UNBLOCK', this.readerId).catch(() => undefined);
  }

  private async readLoop(): Promise<void> {
    this.reading = true;
    try {
      while (!this.closed && this.subscriptions.size > 0) {
        const ids = [...this.subscriptions.keys()];
        // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-assertion -- ioredis types XREAD's answer loosely: its shape is Redis's own, named here
        const answer = (await this.reader
          .xread(
            'COUNT',
            500,
            'BLOCK',
            BLOCK_MS,
            'STREAMS',
            ...ids.map((id) => this.key(id)),
            ...ids.map((id) => this.subscriptions.get(id)?.last ?? '$'),
          )
          .catch(async (error: unknown) => {
            this.logger.warn('reading job events', { error: String(error) });
            await new Promise((resolve) => setTimeout(resolve, 500));
            return null;
          })) as Array<[string, Array<[string, string[]]>]> | null;
        for (const [key, entries] of answer ?? []) {
          const jobId = key.slice(this.prefix.length + ':events:'.length);
          const subscription = this.subscriptions.get(jobId);
          if (!subscription) continue;
          for (const [entryId, fields] of entries) {
            subscription.last = entryId;
            const event = JSON.parse(itemAt(fields, 1)) as JobEvent;
            for (const listener of [...subscription.listeners]) listener(event);
            // Nothing follows a job's end: its subscription goes.
            if (isEndEvent(event)) {
              this.subscriptions.delete(jobId);
              break;
            }
          }
        }
      }
    } finally {
      this.reading = false;
    }
  }
}
