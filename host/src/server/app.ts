import http from 'node:http';
import Router from '@koa/router';
import Koa, { type Middleware } from 'koa';
import { HttpError } from '@cadence/errors';
import { parseSize } from '@cadence/config';
import type { Runtime } from '../runtime.js';
import { InMemoryJobEventChannel, type JobEventChannel } from './jobs/job-events.js';
import { JobManager } from './jobs/job-manager.js';
import { InMemoryJobQueue, type JobQueue } from './jobs/job-queue.js';
import { InMemoryJobStore, type JobStore } from './jobs/job-store.js';
import { ServerMetrics } from './metrics.js';
import { requireApiToken } from './middleware/api-token.js';
import { errorBody } from './middleware/error-body.js';
import { clientAddress } from './middleware/client-address.js';
import { inMemoryRateLimiters, rateLimit, type RateLimiterFactory } from './middleware/rate-limit.js';
import { refuseCrossSite } from './middleware/same-origin.js';
import { SizedResultCache } from './result-cache.js';
import { analyzeRoutes } from './routes/analyze.js';
import { jobRoutes } from './routes/jobs.js';
import { metricRoutes, operationRoutes } from './routes/operations.js';
import { streamRoutes } from './routes/streams.js';
import { webhookRoutes } from './routes/webhooks.js';
import { InMemoryDeliveryMemory, type DeliveryMemory } from './webhooks/delivery-memory.js';
import { UnverifiedBytes } from './webhooks/unverified-bytes.js';

/** The shared state behind small interfaces; in-memory today, Redis-backed implementations later. */
export interface ServerBackends {
  readonly store: JobStore;
  readonly queue: JobQueue;
  readonly events: JobEventChannel;
  readonly rateLimiters: RateLimiterFactory;
  readonly deliveries: DeliveryMemory;
}

export function inMemoryBackends(runtime: Runtime): ServerBackends {
  return {
    store: new InMemoryJobStore(runtime.config.limits.max_jobs),
    queue: new InMemoryJobQueue(runtime.config.limits.queue_capacity),
    events: new InMemoryJobEventChannel(),
    rateLimiters: inMemoryRateLimiters,
    deliveries: new InMemoryDeliveryMemory(),
  };
}

export interface CadenceServer {
  readonly app: Koa;
  readonly jobs: JobManager;
  listen(port: number, host: string): Promise<http.Server>;
  /** Stops accepting, lets running jobs finish within the grace period, then closes. */
  shutdown(): Promise<void>;
}

export function createServer(runtime: Runtime, backends: ServerBackends = inMemoryBackends(runtime)): CadenceServer {
  const { config, engine, logger } = runtime;
  const log = logger.child('server');
  const metrics = new ServerMetrics();
  const cache = new SizedResultCache(parseSize(config.cache.max_size), metrics);
  const network = config.security.allow_private_networks ? null : { allowPrivateNetworks: false, allowedNetworks: config.security.allowed_networks };
  const jobs = new JobManager({
    engine,
    store: backends.store,
    queue: backends.queue,
    events: backends.events,
    cache,
    metrics,
    logger,
    workers: config.webhook.maxWorkers,
    jobTimeoutMs: config.limits.job_timeout_seconds * 1000,
    network,
    allowLocalPaths: config.security.allow_local_paths,
  });

  // The client address is ours to compute (clientAddress): Koa's proxy mode trusts the leftmost X-Forwarded-For entry.
  const app = new Koa({ proxy: config.api.trust_proxy });
  app.silent = true;
  app.use(errorBody(log));
  if (config.logging.level === 'debug') app.use(requestLog(log));
  app.use(clientAddress(config.api.trust_proxy, config.api.trusted_proxies));
  app.use(authentication(config.api.token, config.api.public_metrics));
  const limit = (group: string, perMinute: number) => rateLimit(backends.rateLimiters(group, perMinute));
  // Routes that start jobs: refused to other sites' pages, then counted per client (decisions §9).
  const startsJobs = [refuseCrossSite(config.api.allowed_origins), limit('analyses', config.rate_limits.analyses_per_minute)];

  // One router for every resource: one match per request.
  const router = new Router();
  if (config.webhook.enabled) {
    webhookRoutes(router, {
      secret: config.webhook.secret,
      jobs,
      deliveries: backends.deliveries,
      limiter: backends.rateLimiters('webhooks', config.rate_limits.webhooks_per_minute),
      unverifiedBytes: new UnverifiedBytes(config.limits.max_unverified_webhook_bytes),
      allowLocalPaths: config.security.allow_local_paths,
    });
  }
  analyzeRoutes(router, jobs, config.security.allow_local_paths, startsJobs);
  streamRoutes(router, { jobs, events: backends.events, allowLocalPaths: config.security.allow_local_paths, keepAliveMs: config.limits.stream_keepalive_seconds * 1000, guards: startsJobs, maxOpenStreams: config.limits.max_open_streams });
  jobRoutes(router, backends.store, jobs, limit('job_queries', config.rate_limits.job_queries_per_minute));
  operationRoutes(router, jobs, cache, engine);
  metricRoutes(router, metrics, jobs, cache, limit('metrics', config.rate_limits.metrics_per_minute));
  app.use(router.routes());
  // Not thrown: the router then sets the Allow header, and errorBody gives the 405 the contract's body.
  app.use(router.allowedMethods());

  let server: http.Server | null = null;
  return {
    app,
    jobs,
    listen(port, host) {
      return new Promise((resolve, reject) => {
        const created = http.createServer(app.callback());
        // --timeout: how long a request may take to arrive; streams send keep-alives and clear their socket timeout.
        created.requestTimeout = config.webhook.read_timeout_seconds * 1000;
        created.headersTimeout = Math.min(created.requestTimeout, 60_000);
        created.timeout = config.webhook.write_timeout_seconds * 1000;
        created.once('error', reject);
        created.listen(port, host, () => {
          created.off('error', reject);
          server = created;
          resolve(created);
        });
      });
    },
    async shutdown() {
      const closing = server ? new Promise<void>((resolve) => server!.close(() => resolve())) : Promise.resolve();
      server?.closeIdleConnections();
      await jobs.shutdown(config.limits.shutdown_grace_seconds * 1000);
      // Streams ended with their error event; anything still open is cut.
      setTimeout(() => server?.closeAllConnections(), 1000).unref();
      await closing;
    },
  };
}

/** Decisions §8: /health and the two webhooks never need the token; /metrics may be public. */
function authentication(token: string | null, publicMetrics: boolean): Middleware {
  const check = requireApiToken(token);
  return (ctx, next) => {
    if (!token || ctx.path === '/health' || ctx.path.startsWith('/webhooks/') || (publicMetrics && ctx.path === '/metrics')) return next();
    return check(ctx, next);
  };
}

function requestLog(log: Runtime['logger']): Middleware {
  return async (ctx, next) => {
    const started = performance.now();
    try {
      await next();
    } finally {
      log.debug('request', { method: ctx.method, path: ctx.path, status: ctx.status, duration_ms: performance.now() - started });
    }
  };
}
