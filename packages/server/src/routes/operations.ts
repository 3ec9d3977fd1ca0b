import Router from '@koa/router';
import type { Middleware } from 'koa';
import type { Engine } from '@cadence/engine';
import type { JobManager } from '../jobs/job-manager.js';
import type { ServerMetrics } from '../metrics.js';
import type { SizedResultCache } from '../result-cache.js';

/** /health (decisions §11): never behind the token, for load balancers and probes. */
export function healthRoutes(router: Router, jobs: JobManager): void {
  router.get('/health', async (ctx) => {
    const now = new Date().toISOString();
    ctx.body = { status: 'ok', timestamp: now, time: now, ...(await jobs.health()) };
  });
}

/** /api/cache/*, /api/plugins. */
export function operationRoutes(router: Router, cache: SizedResultCache, engine: Engine): void {
  router.get('/api/cache/stats', (ctx) => {
    ctx.body = cache.stats();
  });
  router.post('/api/cache/clear', (ctx) => {
    cache.clear();
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
export function prometheusRoutes(router: Router, metrics: ServerMetrics, limit: Middleware): void {
  router.get('/metrics', limit, async (ctx) => {
    ctx.type = metrics.registry.contentType;
    ctx.body = await metrics.registry.metrics();
  });
}

/** /api/metrics (JSON). */
export function metricRoutes(router: Router, metrics: ServerMetrics, jobs: JobManager, cache: SizedResultCache, limit: Middleware): void {
  router.get('/api/metrics', limit, async (ctx) => {
    const health = await jobs.health();
    const total = async (status: string): Promise<number> => metrics.countOf(metrics.jobsTotal, { status });
    ctx.body = {
      jobs_total: { completed: await total('completed'), failed: await total('failed'), cancelled: await total('cancelled'), timeout: await total('timeout') },
      jobs_active: health.active_jobs,
      queue_depth: health.queue_depth,
      cache_hits: cache.hits,
      cache_misses: cache.misses,
      cache_size: cache.stats().size,
      uptime_seconds: health.uptime_seconds,
    };
  });
}
