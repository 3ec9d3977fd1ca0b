import http from 'node:http';
import Router from '@koa/router';
import Koa, { type Middleware } from 'koa';
import { HttpError } from '@cadence-detect/errors';
import type { CadenceConfig } from '@cadence-detect/config';
import type { Engine } from '@cadence-detect/engine';
import type { Logger } from '@cadence-detect/logger';
import { JobManager, jobManagerFor } from './jobs/job-manager.js';
import type { AnalysisThreadsSpec } from './jobs/analysis-threads.js';
import { ServerMetrics } from './metrics.js';
import { requireApiToken } from './middleware/api-token.js';
import { dashboardRoutes } from './routes/dashboard.js';
import { errorBody } from './middleware/error-body.js';
import { clientAddress, trustedProxyPeer } from './middleware/client-address.js';
import { answerClientErrors, limitConnectionsPerClient } from './connection-limit.js';
import { rateLimit } from './middleware/rate-limit.js';
import { QUEUE_DASHBOARD_PATH } from './backends/redis/queue-dashboard-path.js';
import { inMemoryBackends, type ServerBackends } from './backends/server-backends.js';
import { refuseCrossSite } from './middleware/same-origin.js';
import { analyzeRoutes, organizationRoutes } from './routes/analyze.js';
import { OrganizationScans } from './scans/organization-scans.js';
import { scheduledScans, type ScanTimer } from './scans/scan-schedule.js';
import { parseForgeTarget } from '@cadence-detect/organization';
import { jobRoutes } from './routes/jobs.js';
import { healthRoutes, metricRoutes, operationRoutes, prometheusRoutes } from './routes/operations.js';
import { streamRoutes } from './routes/streams.js';
import { forgeIntakes, webhookRoutes } from './routes/webhooks.js';
import { requireAllowedHost } from './middleware/allowed-host.js';
import { UnverifiedBytes } from './webhooks/unverified-bytes.js';

/** How long a request's headers may take to arrive (at most the request timeout). */
const HEADERS_TIMEOUT_MS = 10_000;

/** What a server needs: the validated configuration, the engine (with its plugins) and a logger. */
export interface ServerOptions {
  readonly config: CadenceConfig;
  readonly engine: Engine;
  readonly logger: Logger;
  /** The shared state (see createBackends); in memory unless given. */
  readonly backends?: ServerBackends;
  /**
   * With the memory backend, run analyses in worker threads built from this module (the host's
   * engine-thread): the HTTP event loop then never runs an analysis. Absent: in this thread.
   */
  readonly analysisThreads?: AnalysisThreadsSpec;
}

export interface CadenceServer {
  readonly app: Koa;
  /** A Node request listener: mount the server in an http(s) server of your own. */
  readonly listener: http.RequestListener;
  /** Every route, and whether it needs the API token (what a test or an operator can check). */
  readonly routes: ReadonlyArray<{ readonly path: string; readonly methods: readonly string[]; readonly guarded: boolean }>;
  readonly jobs: JobManager;
  listen(port: number, host: string): Promise<http.Server>;
  /** Stops accepting, lets running jobs finish within the grace period, then closes. */
  shutdown(): Promise<void>;
}

/**
 * The Cadence HTTP server as a library: the Koa app, a request listener, the job machinery, and
 * listen/shutdown. The `cadence webhook` command is one caller; an embedding program is another.
 */
export function createServer(options: ServerOptions): CadenceServer {
  const { config, engine, logger } = options;
  const backends = options.backends ?? inMemoryBackends(config);
  const log = logger.child('server');
  const metrics = new ServerMetrics();
  const cache = backends.resultCache(metrics);
  const jobs = jobManagerFor({ config, engine, logger, backends, metrics, cache, workers: config.webhook.maxWorkers, threads: options.analysisThreads });

  // The client address is ours to compute (clientAddress): Koa's proxy mode trusts the leftmost X-Forwarded-For entry.
  const app = new Koa({ proxy: config.api.trust_proxy });
  app.silent = true;
  // The route table is known once every router is built (below): a 404 names the routes under its path.
  let routesUnder = (_path: string): string[] => [];
  app.use(errorBody(log, (path) => routesUnder(path)));
  if (config.server.base_path) app.use(underBasePath(config.server.base_path));
  if (config.logging.level === 'debug') app.use(requestLog(log));
  app.use(clientAddress(config.api.trust_proxy, config.api.trusted_proxies));
  // Without a token, a DNS-rebound page would pass as this server's own origin (middleware/allowed-host.ts).
  if (config.api.token === null) {
    app.use(requireAllowedHost({
      publicUrl: config.server.public_url,
      allowedHosts: config.api.allowed_hosts,
      trustProxy: config.api.trust_proxy,
      trustedProxies: config.api.trusted_proxies,
      exempt: (path) => path === '/health' || path.startsWith('/webhooks/'),
    }));
  }
  const limit = (group: string, perMinute: number) => rateLimit(backends.rateLimiters(group, perMinute));
  // Routes that start jobs: refused to other sites' pages, then counted per client (docs/http-api.md, Conventions).
  const crossSite = refuseCrossSite(config.api.allowed_origins);
  const startsJobs = [crossSite, limit('analyses', config.rate_limits.analyses_per_minute)];

  // Two routers, each carrying its own checks: a route added to `guarded` cannot be public by accident,
  // and only what is registered on `open` is (docs/http-api.md, Conventions: /health, the webhooks, /metrics if public).
  const open = new Router();
  const guarded = new Router();
  guarded.use(requireApiToken(config.api.token, backends.sessionRevocations));
  healthRoutes(open, jobs, backends);
  if (config.webhook.enabled) {
    // Ahead of both routers: a forge's POST to the exact webhook path skips route matching.
    app.use(webhookRoutes(open, {
      secret: config.webhook.secret,
      jobs,
      crossSite,
      limiter: backends.rateLimiters('webhooks', config.rate_limits.webhooks_per_minute),
      unverifiedBytes: new UnverifiedBytes(config.limits.max_unverified_webhook_bytes),
      allowLocalPaths: config.security.allow_local_paths,
      // Whatever forges the loaded plugins declare: GitHub and GitLab are built-in plugins like any other.
      forges: forgeIntakes(engine.plugins(), logger),
    }));
  }
  const metricsLimit = limit('metrics', config.rate_limits.metrics_per_minute);
  prometheusRoutes(config.api.public_metrics ? open : guarded, metrics, metricsLimit);
  analyzeRoutes(guarded, jobs, config.security.allow_local_paths, startsJobs);
  const scans = new OrganizationScans({
    jobs,
    plugins: () => engine.plugins(),
    logger,
    bands: config.assessment,
    timeoutMs: config.limits.scan_timeout_seconds * 1000,
    maxInFlight: config.scans.max_queued_children,
    allowLocalPaths: config.security.allow_local_paths,
  });
  const scheduleStop = new AbortController();
  const schedule = startScanSchedule(config, backends, scans, log, scheduleStop.signal);
  // Only behind a token: a server anyone can reach must not list what its forge token can see.
  if (config.api.token !== null) {
    organizationRoutes(guarded, scans, { allowedOwners: config.scans.allowed_owners, allowLocalPaths: config.security.allow_local_paths, plugins: () => engine.plugins() }, startsJobs);
  }
  const queryLimit = limit('job_queries', config.rate_limits.job_queries_per_minute);
  dashboardRoutes(open, config.api.token, queryLimit, backends.sessionRevocations, config.server.base_path);
  streamRoutes(guarded, { jobs, store: backends.store, queryLimit, events: backends.events, allowLocalPaths: config.security.allow_local_paths, keepAliveMs: config.limits.stream_keepalive_seconds * 1000, guards: startsJobs, maxOpenStreams: config.limits.max_open_streams });
  jobRoutes(guarded, backends.store, jobs, queryLimit);
  operationRoutes(guarded, cache, engine);
  metricRoutes(guarded, metrics, jobs, cache, metricsLimit);
  if (backends.queueDashboard) app.use(dashboardMount(backends.queueDashboard, requireApiToken(config.api.token, backends.sessionRevocations), config.server.base_path));
  for (const router of [open, guarded]) {
    app.use(router.routes());
    // Not thrown: the router then sets the Allow header, and errorBody gives the 405 the contract's body.
    app.use(router.allowedMethods());
  }
  const routes = [...routeTable(open, false), ...routeTable(guarded, config.api.token !== null)];
  routesUnder = (path) => {
    const prefix = `${path.replace(/\/+$/, '')}/`;
    return prefix === '/' ? [] : routes.filter((r) => r.path.startsWith(prefix)).flatMap((r) => r.methods.filter((m) => m !== 'HEAD').map((m) => `${m} ${r.path}`));
  };

  let server: http.Server | null = null;
  const listener = app.callback();
  return {
    app,
    listener,
    routes,
    jobs,
    listen(port, host) {
      return new Promise((resolve, reject) => {
        // Node checks the headers and request timeouts every connectionsCheckingInterval (30 s by
        // default, which would stretch a 10 s headers timeout to 40 s): once a second here.
        const created = http.createServer({ connectionsCheckingInterval: 1000 }, (request, response) => {
          if (connections.refused(request.socket)) return void request.socket.destroy();
          listener(request, response);
        });
        const connections = limitConnectionsPerClient(created, config.limits.max_connections_per_client, trustedProxyPeer(config.api.trust_proxy, config.api.trusted_proxies));
        answerClientErrors(created);
        // --timeout: how long a request may take to arrive; streams send keep-alives and clear their socket timeout.
        created.requestTimeout = config.webhook.read_timeout_seconds * 1000;
        // Headers come in one packet from any real client: a connection trickling them is closed (408) after 10 s.
        created.headersTimeout = Math.min(created.requestTimeout, HEADERS_TIMEOUT_MS);
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
      // One grace period for the whole stop, whatever each step takes of it.
      const deadline = Date.now() + config.limits.shutdown_grace_seconds * 1000;
      const left = (): number => Math.max(0, deadline - Date.now());
      // A schedule still setting up (Redis away) gives up on this signal; waiting for it is bounded.
      scheduleStop.abort();
      await Promise.race([schedule.then((timer) => timer?.close()), new Promise((resolve) => setTimeout(resolve, Math.min(3000, left())).unref())]);
      await scans.stop(left());
      await jobs.shutdown(left());
      await backends.close();
      // Streams ended with their error event; anything still open is cut.
      setTimeout(() => server?.closeAllConnections(), 1000).unref();
      await closing;
    },
  };
}

/**
 * `scans.schedule`: each target's scan started on its timer (docs/organization.md), only on a
 * server with an API token. A firing that cannot start (the server stopping) is logged and waits
 * for the next; a forge no plugin brings gives an organization job that fails with its code.
 */
function startScanSchedule(config: CadenceConfig, backends: ServerBackends, scans: OrganizationScans, log: Logger, stop: AbortSignal): Promise<ScanTimer | null> {
  const entries = scheduledScans(config.scans.schedule);
  if (entries.length > 0 && config.api.token === null) {
    // Its results would be readable by anyone who reaches the server (every job route is open without a token).
    log.error('scans.schedule is ignored: scheduled organization scans need api.token', { targets: entries.map((e) => e.target) });
    // Nor does it touch the shared schedule: the servers configured with a token keep theirs.
    return Promise.resolve(null);
  }
  // On Redis the factory also removes schedulers left from an earlier configuration, even when none is left.
  if (entries.length === 0 && backends.kind !== 'redis') return Promise.resolve(null);
  const configured = new Set(entries.map((e) => e.target));
  const fire = async (target: string): Promise<void> => {
    const parsed = parseForgeTarget(target);
    if (!configured.has(target) || !parsed) return void log.warn('a scheduled scan this server does not have configured was skipped', { target });
    await scans.start({ kind: 'organization', url: `${parsed.forge}:${parsed.owner}`, forge: parsed.forge, owner: parsed.owner, include_forks: false, include_archived: false }, 'schedule')
      .catch((error: unknown) => log.warn('scheduled scan did not start', { target, error: error instanceof Error ? error.message : String(error) }));
  };
  return backends.scanTimers(entries, fire, stop).catch((error: unknown) => {
    if (stop.aborted) return null;
    log.error('scans.schedule could not be set up', { error: error instanceof Error ? error.message : String(error) });
    return null;
  });
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
      await (await dashboard)(ctx, next);
    });
  };
}

/**
 * `server.base_path`: every route answers under the prefix, as a proxy forwards it, and nothing
 * outside it. The prefix is taken off the path before routing, so the routes are the same as
 * without one; the dashboard's links are relative, and `/prefix` alone redirects to `/prefix/` so
 * that they resolve under it.
 */
function underBasePath(basePath: string): Middleware {
  return async (ctx, next) => {
    if (ctx.path === basePath && (ctx.method === 'GET' || ctx.method === 'HEAD')) {
      ctx.status = 308;
      ctx.redirect(`${basePath}/${ctx.querystring ? `?${ctx.querystring}` : ''}`);
      return;
    }
    if (!ctx.path.startsWith(`${basePath}/`)) throw HttpError.notFound(`Nothing here: this server answers under ${basePath}/`);
    ctx.path = ctx.path.slice(basePath.length);
    await next();
  };
}

function routeTable(router: Router, guarded: boolean): Array<{ path: string; methods: string[]; guarded: boolean }> {
  // Layers without methods are the router's own middleware (the token check), not routes.
  return router.stack.filter((layer) => layer.methods.length > 0).map((layer) => ({ path: String(layer.path), methods: [...layer.methods], guarded }));
}

function requestLog(log: Logger): Middleware {
  return async (ctx, next) => {
    const started = performance.now();
    try {
      await next();
    } finally {
      log.debug('request', { method: ctx.method, path: ctx.path, status: ctx.status, duration_ms: performance.now() - started });
    }
  };
}
