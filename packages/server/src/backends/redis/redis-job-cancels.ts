import type { Redis } from 'ioredis';
import { isOperationalCode, type OperationalCode } from '@cadence-detect/errors';
import { retrying } from '@cadence-detect/plugin-sdk';
import type { JobCancels } from '../../jobs/job-cancels.js';
import { unavailable } from './redis-connection.js';

/** How long a cancel request is remembered for a worker that was not listening when it was made. */
const REMEMBER_SECONDS = 3600;

/**
 * Cancel requests over Redis pub/sub: every process hears them; the one running the job aborts it.
 * Each request is also recorded for an hour, so a worker that subscribed late (or reconnected)
 * finds it when it starts or resumes the job.
 */
export class RedisJobCancels implements JobCancels {
  private readonly listeners = new Set<(jobId: string, code: OperationalCode) => void>();
  private readonly channel: string;
  /** Resolves once this process hears the channel (a worker takes no job before). */
  readonly ready: Promise<void>;

  constructor(
    private readonly command: Redis,
    private readonly subscriber: Redis,
    private readonly prefix: string,
  ) {
    this.channel = `${prefix}:cancel`;
    // A subscription that fails (Redis away, a connection that timed out under load) is asked again
    // until it holds: a process that never hears the channel would never stop a cancelled job.
    this.ready = retrying(() => subscriber.subscribe(this.channel), {
      retries: Number.POSITIVE_INFINITY,
      initialDelayMs: 100,
      maxDelayMs: 2000,
      retryable: () => subscriber.status !== 'end',
    }).then(
      () => undefined,
      () => undefined,
    );
    subscriber.on('message', (channel: string, message: string) => {
      if (channel !== this.channel) return;
      const { id, code } = JSON.parse(message) as { id: string; code: unknown };
      if (!isOperationalCode(code)) return;
      for (const listener of this.listeners) listener(id, code);
    });
  }

  async request(jobId: string, code: OperationalCode): Promise<void> {
    await this.command
      .multi()
      .set(`${this.prefix}:cancelled:${jobId}`, code, 'EX', REMEMBER_SECONDS)
      .publish(this.channel, JSON.stringify({ id: jobId, code }))
      .exec()
      .catch(unavailable);
  }

  async requested(jobId: string): Promise<OperationalCode | null> {
    const code = await this.command.get(`${this.prefix}:cancelled:${jobId}`).catch(() => null);
    return isOperationalCode(code) ? code : null;
  }

  listen(listener: (jobId: string, code: OperationalCode) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
