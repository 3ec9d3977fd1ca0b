import { Router } from '../vendor/koa.js';
import type { Middleware } from 'koa';
import type { Engine } from '@cadence-detect/engine';
import type { JobManager } from '../jobs/job-manager.js';
import type { ServerMetrics } from '../metrics.js';
import type { ServerResultCache } from '../result-cache.js';
import type { ServerBackends } from '../backends/server-backends.js';
import type { RegisterRoutes } from './route-module.js';

/** /health (docs/http-api.md, GET /health and GET /metrics): never behind the token, for load balancers and probes. */
/**
 * /health: 200 with the health record when the server is ready; with the Redis backend, 503 and
 * `status: "unavailable"` while Redis does not answer (a load balancer then sends work elsewhere).
 */
function healthRoutes(router: Router, jobs: JobManager, backends: ServerBackends): void {
  router.get('/health', async (ctx) => {
    const now = new Date().toISOString();
    const backend = await backends.health();
    const ready = backend.redis !== 'down';
    const counts = ready ? await jobs.health().catch(() => null) : null;
    ctx.status = ready && counts ? 200 : 503;
    if (ctx.status === 503) ctx.set('Retry-After', '5');
    ctx.body = {
      status: ctx.status === 200 ? 'ok' : 'unavailable',
      timestamp: now,
      time: now,
      ...(counts ?? jobs.localHealth()),
      ...backend,
    };
  });
}

/** /api/cache/*, /api/plugins. */
function operationRoutes(router: Router, cache: ServerResultCache, engine: Engine): void {
  router.get('/api/cache/stats', async (ctx) => {
    ctx.body = await cache.stats();
  });
  router.post('/api/cache/clear', async (ctx) => {
    await cache.clear();
    ctx.body = { cleared: true };
  });
  router.get('/api/plugins', (ctx) => {
    ctx.body = engine.strategies().map((s) => ({
      name: s.name,
      category: s.category,
      description: s.description,
      applies_to: s.appliesTo,
      weight: s.weight,
      enabled: s.enabled,
      plugin: s.plugin,
      package: s.package,
      version: s.version,
      ...(s.docsUrl ? { docs_url: s.docsUrl } : {}),
    }));
  });
}

/** /metrics (Prometheus text): behind the token unless api.public_metrics puts it on the open router. */
function prometheusRoutes(router: Router, metrics: ServerMetrics, limit: Middleware): void {
  router.get('/metrics', limit, async (ctx) => {
    ctx.type = metrics.registry.contentType;
    ctx.body = await metrics.registry.metrics();
  });
}

/** /api/metrics (JSON). */
function metricRoutes(
  router: Router,
  metrics: ServerMetrics,
  jobs: JobManager,
  cache: ServerResultCache,
  limit: Middleware,
): void {
  router.get('/api/metrics', limit, async (ctx) => {
    const health = await jobs.health();
    const stats = await cache.stats();
    const total = async (status: string): Promise<number> => metrics.countOf(metrics.jobsTotal, { status });
    ctx.body = {
      jobs_total: {
        completed: await total('completed'),
        failed: await total('failed'),
        cancelled: await total('cancelled'),
        timeout: await total('timeout'),
      },
      jobs_active: health.active_jobs,
      queue_depth: health.queue_depth,
      cache_hits: stats.hits,
      cache_misses: stats.misses,
      cache_size: stats.size,
      uptime_seconds: health.uptime_seconds,
    };
  });
}

/** /health (open), /metrics (open only with api.public_metrics), the cache, plugin and metric routes (guarded). */
export const register: RegisterRoutes<'config' | 'jobs' | 'backends' | 'metrics' | 'cache' | 'engine' | 'guards'> = (
  { open, guarded },
  { config, jobs, backends, metrics, cache, engine, guards },
) => {
  healthRoutes(open, jobs, backends);
  prometheusRoutes(config.api.public_metrics ? open : guarded, metrics, guards.metricsLimit);
  operationRoutes(guarded, cache, engine);
  metricRoutes(guarded, metrics, jobs, cache, guards.metricsLimit);
};
