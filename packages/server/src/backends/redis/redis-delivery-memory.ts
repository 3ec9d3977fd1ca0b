import type { Redis } from 'ioredis';
import type { DeliveryMemory } from '../../webhooks/delivery-memory.js';
import { unavailable } from './redis-connection.js';

/** How long a delivery id is remembered: forges redeliver within hours, not days. */
const REMEMBER_SECONDS = 3 * 24 * 3600;
const PENDING = '<pending>';

/**
 * Delivery ids across servers: `SET NX` with an expiry claims an id; a redelivery reaching another
 * server while the first is still creating the job waits for its id.
 */
export class RedisDeliveryMemory implements DeliveryMemory {
  constructor(private readonly redis: Redis, private readonly prefix: string) {}

  async claim(deliveryId: string, createJob: () => Promise<string>): Promise<{ jobId: string; duplicate: boolean }> {
    const key = `${this.prefix}:delivery:${deliveryId}`;
    const claimed = await this.redis.set(key, PENDING, 'EX', 60, 'NX').catch(unavailable);
    if (claimed !== 'OK') return { jobId: await this.earlierJob(key), duplicate: true };
    let jobId: string;
    try {
      jobId = await createJob();
    } catch (error) {
      // A job that could not be created (overload) is not remembered: a redelivery may try again.
      await this.redis.del(key).catch(() => undefined);
      throw error;
    }
    await this.redis.set(key, jobId, 'EX', REMEMBER_SECONDS).catch(unavailable);
    return { jobId, duplicate: false };
  }

  private async earlierJob(key: string): Promise<string> {
    for (let waited = 0; waited < 10_000; waited += 50) {
      const value = await this.redis.get(key).catch(unavailable);
      if (value && value !== PENDING) return value;
      if (!value) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    unavailable(new Error('the first delivery did not finish creating its job'));
  }
}
