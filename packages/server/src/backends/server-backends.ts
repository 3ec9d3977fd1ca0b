import { parseSize, type CadenceConfig } from '@cadence-detect/config';
import type { RateLimiterFactory } from '../middleware/rate-limit.js';
import { inMemoryRateLimiters } from '../middleware/rate-limit.js';
import { InMemoryJobCancels, type JobCancels } from '../jobs/job-cancels.js';
import { InMemoryJobEventChannel, type JobEventChannel } from '../jobs/job-events.js';
import { InMemoryJobQueue, type JobQueue } from '../jobs/job-queue.js';
import { InMemoryJobStore, type JobStore } from '../jobs/job-store.js';
import type { ServerMetrics } from '../metrics.js';
import { inProcessScanTimers, type ScanTimerFactory } from '../scans/scan-schedule.js';
import { SizedResultCache, type ServerResultCache } from '../result-cache.js';
import { InMemorySessionRevocations, type SessionRevocations } from '../middleware/session-revocations.js';

/**
 * The shared state behind small interfaces, selected by `queue.backend`: in this process (the
 * embedded default, needing nothing) or on Redis (./redis), shared by servers and workers.
 * Nothing above these interfaces knows which.
 */
export interface ServerBackends {
  readonly kind: 'memory' | 'redis';
  readonly store: JobStore;
  readonly queue: JobQueue;
  readonly events: JobEventChannel;
  readonly cancels: JobCancels;
  readonly rateLimiters: RateLimiterFactory;
  /** Dashboard sessions signed out of before their expiry. */
  readonly sessionRevocations: SessionRevocations;
  resultCache(metrics: ServerMetrics): ServerResultCache;
  /** What fires `scans.schedule`: this process's timers, or BullMQ's job schedulers (once across servers). */
  readonly scanTimers: ScanTimerFactory;
  /** The queue dashboard's middleware (`queue.dashboard` with the Redis backend), served at /admin/queues. */
  readonly queueDashboard?: (() => Promise<import('koa').Middleware>) | undefined;
  /** What /health shows of the backend. */
  health(): Promise<{ backend: 'memory' | 'redis'; redis?: 'up' | 'down' }>;
  close(): Promise<void>;
}

export function inMemoryBackends(config: CadenceConfig): ServerBackends {
  return {
    kind: 'memory',
    store: new InMemoryJobStore(config.limits.max_jobs),
    queue: new InMemoryJobQueue(config.limits.queue_capacity),
    events: new InMemoryJobEventChannel(),
    cancels: new InMemoryJobCancels(),
    rateLimiters: inMemoryRateLimiters,
    sessionRevocations: new InMemorySessionRevocations(),
    resultCache: (metrics) => new SizedResultCache(parseSize(config.cache.max_size), metrics),
    scanTimers: inProcessScanTimers,
    health: async () => ({ backend: 'memory' }),
    close: async () => undefined,
  };
}

/** The backends `queue.backend` names; the Redis ones (and BullMQ) load only when chosen. */
export async function createBackends(
  config: CadenceConfig,
  logger: import('@cadence-detect/logger').Logger,
): Promise<ServerBackends> {
  if (config.queue.backend === 'memory') return inMemoryBackends(config);
  const { createRedisBackends } = await import('./redis/redis-backends.js');
  return createRedisBackends(config, logger);
}
