import { RateLimiterMemory, RateLimiterRedis } from '../../vendor/rate-limiter-flexible.js';
import { parseSize, type CadenceConfig } from '@cadence-detect/config';
import type { Logger } from '@cadence-detect/logger';
import type { ServerBackends } from '../server-backends.js';
import { BullJobQueue } from './bull-job-queue.js';
import { bullScanTimers } from './bull-scan-timers.js';
import { commandConnection, waitingConnection, whenReady } from './redis-connection.js';
import { RedisJobCancels } from './redis-job-cancels.js';
import { RedisJobEventChannel } from './redis-job-events.js';
import { RedisJobStore } from './redis-job-store.js';
import { RedisResultCache } from './redis-result-cache.js';
import { RedisSessionRevocations } from './redis-session-revocations.js';

/**
 * Every shared part of the server on one Redis (`queue.backend: redis`): jobs, the queue (BullMQ),
 * events, cancels, delivery ids (with the jobs), rate-limit counters and the result cache. Servers and `cadence
 * worker` processes pointed at the same Redis and key prefix share all of it.
 */
export async function createRedisBackends(config: CadenceConfig, logger: Logger): Promise<ServerBackends> {
  const log = logger.child('redis');
  const { url, key_prefix: prefix } = config.redis;
  const command = commandConnection(url, 'cadence-commands');
  const reader = waitingConnection(url, 'cadence-events');
  const subscriber = waitingConnection(url, 'cadence-cancels');
  for (const connection of [command, reader, subscriber])
    connection.on('error', (error: Error) => log.warn('connection', { error: error.message }));
  if (!(await whenReady(command, 5000)))
    log.warn('Redis does not answer yet: requests get 503 unavailable until it does');
  const queue = new BullJobQueue({
    url,
    prefix,
    capacity: config.limits.queue_capacity,
    stallTimeoutMs: config.queue.stall_timeout_seconds * 1000,
    logger,
  });
  const events = new RedisJobEventChannel(command, reader, prefix, log);
  const cancels = new RedisJobCancels(command, subscriber, prefix);
  await Promise.race([cancels.ready, new Promise((resolve) => setTimeout(resolve, 5000).unref())]);
  return {
    kind: 'redis',
    store: new RedisJobStore(command, prefix, config.limits.max_jobs, config.limits.job_ttl_seconds),
    queue,
    events,
    cancels,
    // Counted in Redis, so every server shares one window; while Redis is away each server counts alone.
    rateLimiters: (group, perMinute) =>
      new RateLimiterRedis({
        storeClient: command,
        keyPrefix: `${prefix}:rate:${group}`,
        points: perMinute,
        duration: 60,
        insuranceLimiter: new RateLimiterMemory({ keyPrefix: group, points: perMinute, duration: 60 }),
      }),
    sessionRevocations: new RedisSessionRevocations(command, prefix),
    resultCache: (metrics) => new RedisResultCache(command, prefix, parseSize(config.cache.max_size), metrics),
    scanTimers: bullScanTimers(url, prefix, logger),
    queueDashboard: config.queue.dashboard
      ? () => import('./queue-dashboard.js').then((m) => m.queueDashboard(queue.bullQueue, config.server.base_path))
      : undefined,
    async health() {
      const answers = await command.ping().then(
        () => true,
        () => false,
      );
      return { backend: 'redis', redis: answers ? 'up' : 'down' };
    },
    async close() {
      await events.close();
      await queue.close();
      // Nothing waits on these at shutdown: a disconnect drops them even while reconnecting.
      for (const connection of [command, reader, subscriber]) connection.disconnect();
    },
  };
}
