import type { Redis } from 'ioredis';
import { isOperationalCode, type OperationalCode } from '@cadence/errors';
import type { JobCancels } from '../../jobs/job-cancels.js';
import { unavailable } from './redis-connection.js';

/** Cancel requests over Redis pub/sub: every process hears them; the one running the job aborts it. */
export class RedisJobCancels implements JobCancels {
  private readonly listeners = new Set<(jobId: string, code: OperationalCode) => void>();
  private readonly channel: string;

  constructor(private readonly command: Redis, private readonly subscriber: Redis, prefix: string) {
    this.channel = `${prefix}:cancel`;
    void subscriber.subscribe(this.channel).catch(() => undefined);
    subscriber.on('message', (channel: string, message: string) => {
      if (channel !== this.channel) return;
      const { id, code } = JSON.parse(message) as { id: string; code: unknown };
      if (!isOperationalCode(code)) return;
      for (const listener of this.listeners) listener(id, code);
    });
  }

  async request(jobId: string, code: OperationalCode): Promise<void> {
    await this.command.publish(this.channel, JSON.stringify({ id: jobId, code })).catch(unavailable);
  }

  listen(listener: (jobId: string, code: OperationalCode) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
