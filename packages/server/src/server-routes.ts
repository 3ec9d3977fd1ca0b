import { Router } from './vendor/koa.js';
import type Koa from 'koa';
import type { Middleware } from 'koa';
import { QUEUE_DASHBOARD_PATH } from './backends/redis/queue-dashboard-path.js';
import { requireApiToken } from './middleware/api-token.js';
import { rateLimit } from './middleware/rate-limit.js';
import { refuseCrossSite } from './middleware/same-origin.js';
import { register as registerAnalyze } from './routes/analyze.js';
import { register as registerDashboard } from './routes/dashboard.js';
import { register as registerJobs } from './routes/jobs.js';
import { register as registerOperations } from './routes/operations.js';
import type { RegisterRoutes, RouteDeps } from './routes/route-module.js';
import { register as registerStreams } from './routes/streams.js';
import { register as registerWebhooks } from './routes/webhooks.js';

export type RouteTable = ReadonlyArray<{
  readonly path: string;
  readonly methods: readonly string[];
  readonly guarded: boolean;
}>;

/** What the server gives its route modules: its parts; the shared guards are built here. */
export type ServerParts = Omit<RouteDeps, 'guards'>;

/** Every route module, each of the one shape `register(routers, deps)`, in the order their routes match. */
const ROUTE_MODULES: readonly RegisterRoutes[] = [
  registerOperations,
  registerWebhooks,
  registerAnalyze,
  registerDashboard,
  registerStreams,
  registerJobs,
];

/**
 * Every route, on one of two routers that each carry their own checks: a route added to `guarded`
 * cannot be public by accident, and only what is registered on `open` is (docs/http-api.md,
 * Conventions: /health, the webhooks, /metrics if public). Returns the route table.
 */
export function registerRoutes(app: Koa, parts: ServerParts): RouteTable {
  const { config, backends } = parts;
  const limit = (group: string, perMinute: number) => rateLimit(backends.rateLimiters(group, perMinute));
  // Routes that start jobs: refused to other sites' pages, then counted per client (docs/http-api.md, Conventions).
  const crossSite = refuseCrossSite(config.api.allowed_origins);
  const guards = {
    crossSite,
    startsJobs: [crossSite, limit('analyses', config.rate_limits.analyses_per_minute)],
    queryLimit: limit('job_queries', config.rate_limits.job_queries_per_minute),
    metricsLimit: limit('metrics', config.rate_limits.metrics_per_minute),
  };
  const routers = { app, open: new Router(), guarded: new Router() };
  routers.guarded.use(requireApiToken(config.api.token, backends.sessionRevocations));
  for (const register of ROUTE_MODULES) register(routers, { ...parts, guards });
  if (backends.queueDashboard) {
    const tokenCheck = requireApiToken(config.api.token, backends.sessionRevocations);
    app.use(dashboardMount(backends.queueDashboard, tokenCheck, config.server.base_path));
  }
  for (const router of [routers.open, routers.guarded]) {
    app.use(router.routes());
    // Not thrown: the router then sets the Allow header, and errorBody gives the 405 the contract's body.
    app.use(router.allowedMethods());
  }
  return [...routeTable(routers.open, false), ...routeTable(routers.guarded, config.api.token !== null)];
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
    // eslint-disable-next-line @typescript-eslint/no-unsafe-return -- Koa's `next` answers Promise<any>: a middleware's result is never read
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
