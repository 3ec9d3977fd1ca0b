import type { Redis } from 'ioredis';
import { isOperationalCode, type OperationalCode } from '@cadence-detect/errors';
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
    // Subscribed on a ready connection only, and again on every 'ready' (a reconnect): ioredis lets
    // SUBSCRIBE through while its connection is still in its handshake, where it breaks the INFO
    // ready check; ioredis then reconnects and, the connection never having been ready, does not
    // subscribe again. The process believed it heard the channel and heard nothing (a cancel lost
    // under load). Subscribing twice to one channel is harmless.
    this.ready = new Promise<void>((resolve) => {
      const subscribe = (): void =>
        void subscriber.subscribe(this.channel).then(
          () => resolve(),
          () => undefined,
        );
      subscriber.on('ready', subscribe);
      if (subscriber.status === 'ready') subscribe();
    });
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
