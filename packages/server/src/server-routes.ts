import Router from '@koa/router';
import type Koa from 'koa';
import type { Middleware } from 'koa';
import type { CadenceConfig } from '@cadence-detect/config';
import type { Engine } from '@cadence-detect/engine';
import type { Logger } from '@cadence-detect/logger';
import type { ServerBackends } from './backends/server-backends.js';
import type { ServerResultCache } from './result-cache.js';
import { QUEUE_DASHBOARD_PATH } from './backends/redis/queue-dashboard-path.js';
import type { JobManager } from './jobs/job-manager.js';
import type { ServerMetrics } from './metrics.js';
import { requireApiToken } from './middleware/api-token.js';
import { rateLimit } from './middleware/rate-limit.js';
import { refuseCrossSite } from './middleware/same-origin.js';
import { analyzeRoutes, organizationRoutes } from './routes/analyze.js';
import { dashboardRoutes } from './routes/dashboard.js';
import { jobRoutes } from './routes/jobs.js';
import { healthRoutes, metricRoutes, operationRoutes, prometheusRoutes } from './routes/operations.js';
import { streamRoutes } from './routes/streams.js';
import { forgeIntakes, webhookRoutes } from './routes/webhooks.js';
import type { OrganizationScans } from './scans/organization-scans.js';
import { UnverifiedBytes } from './webhooks/unverified-bytes.js';

export interface RouteDeps {
  readonly config: CadenceConfig;
  readonly engine: Engine;
  readonly logger: Logger;
  readonly backends: ServerBackends;
  readonly jobs: JobManager;
  readonly scans: OrganizationScans;
  readonly metrics: ServerMetrics;
  readonly cache: ServerResultCache;
}

export type RouteTable = ReadonlyArray<{
  readonly path: string;
  readonly methods: readonly string[];
  readonly guarded: boolean;
}>;

/**
 * Every route, on one of two routers that each carry their own checks: a route added to `guarded`
 * cannot be public by accident, and only what is registered on `open` is (docs/http-api.md,
 * Conventions: /health, the webhooks, /metrics if public). Returns the route table.
 */
export function registerRoutes(app: Koa, deps: RouteDeps): RouteTable {
  const { config, engine, logger, backends, jobs, scans, metrics, cache } = deps;
  const limit = (group: string, perMinute: number) => rateLimit(backends.rateLimiters(group, perMinute));
  // Routes that start jobs: refused to other sites' pages, then counted per client (docs/http-api.md, Conventions).
  const crossSite = refuseCrossSite(config.api.allowed_origins);
  const startsJobs = [crossSite, limit('analyses', config.rate_limits.analyses_per_minute)];
  const open = new Router();
  const guarded = new Router();
  guarded.use(requireApiToken(config.api.token, backends.sessionRevocations));
  healthRoutes(open, jobs, backends);
  if (config.webhook.enabled) {
    // Ahead of both routers: a forge's POST to the exact webhook path skips route matching.
    app.use(
      webhookRoutes(open, {
        secret: config.webhook.secret,
        jobs,
        crossSite,
        limiter: backends.rateLimiters('webhooks', config.rate_limits.webhooks_per_minute),
        unverifiedBytes: new UnverifiedBytes(config.limits.max_unverified_webhook_bytes),
        allowLocalPaths: config.security.allow_local_paths,
        // Whatever forges the loaded plugins declare: GitHub and GitLab are built-in plugins like any other.
        forges: forgeIntakes(engine.plugins(), logger),
      }),
    );
  }
  const metricsLimit = limit('metrics', config.rate_limits.metrics_per_minute);
  prometheusRoutes(config.api.public_metrics ? open : guarded, metrics, metricsLimit);
  analyzeRoutes(guarded, jobs, config.security.allow_local_paths, startsJobs);
  // Only behind a token: a server anyone can reach must not list what its forge token can see.
  if (config.api.token !== null) {
    organizationRoutes(
      guarded,
      scans,
      {
        allowedOwners: config.scans.allowed_owners,
        allowLocalPaths: config.security.allow_local_paths,
        plugins: () => engine.plugins(),
      },
      startsJobs,
    );
  }
  const queryLimit = limit('job_queries', config.rate_limits.job_queries_per_minute);
  dashboardRoutes(open, config.api.token, queryLimit, backends.sessionRevocations, config.server.base_path);
  streamRoutes(guarded, {
    jobs,
    store: backends.store,
    queryLimit,
    events: backends.events,
    allowLocalPaths: config.security.allow_local_paths,
    keepAliveMs: config.limits.stream_keepalive_seconds * 1000,
    guards: startsJobs,
    maxOpenStreams: config.limits.max_open_streams,
  });
  jobRoutes(guarded, backends.store, jobs, queryLimit);
  operationRoutes(guarded, cache, engine);
  metricRoutes(guarded, metrics, jobs, cache, metricsLimit);
  if (backends.queueDashboard)
    app.use(
      dashboardMount(
        backends.queueDashboard,
        requireApiToken(config.api.token, backends.sessionRevocations),
        config.server.base_path,
      ),
    );
  for (const router of [open, guarded]) {
    app.use(router.routes());
    // Not thrown: the router then sets the Allow header, and errorBody gives the 405 the contract's body.
    app.use(router.allowedMethods());
  }
  return [...routeTable(open, false), ...routeTable(guarded, config.api.token !== null)];
}

/** What a 404 under `path` lists: the routes below it (none for the root). */
export function routesBelow(routes: RouteTable, path: string): string[] {
  const prefix = `${path.replace(/\/+$/, '')}/`;
  return prefix === '/'
    ? []
    : routes
        .filter((r) => r.path.startsWith(prefix))
        .flatMap((r) => r.methods.filter((m) => m !== 'HEAD').map((m) => `${m} ${r.path}`));
}

/**
 * The queue dashboard (bull-board, its own Koa app under /admin/queues), behind the API token like
 * the guarded routes, loaded on its first request.
 */
function dashboardMount(load: () => Promise<Middleware>, tokenCheck: Middleware, basePath: string): Middleware {
  let dashboard: Promise<Middleware> | null = null;
  return async (ctx, next) => {
    if (ctx.path !== QUEUE_DASHBOARD_PATH && !ctx.path.startsWith(`${QUEUE_DASHBOARD_PATH}/`)) return next();
    await tokenCheck(ctx, async () => {
      dashboard ??= load();
      // bull-board routes by its own base path, which holds the prefix (see queueDashboard).
      if (basePath) ctx.path = basePath + ctx.path;
      await (
        await dashboard
      )(ctx, next);
    });
  };
}

function routeTable(router: Router, guarded: boolean): Array<{ path: string; methods: string[]; guarded: boolean }> {
  // Layers without methods are the router's own middleware (the token check), not routes.
  return router.stack
    .filter((layer) => layer.methods.length > 0)
    .map((layer) => ({ path: String(layer.path), methods: [...layer.methods], guarded }));
}
