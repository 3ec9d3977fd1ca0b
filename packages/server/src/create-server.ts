import type http from 'node:http';
import type Koa from 'koa';
import type { CadenceConfig } from '@cadence-detect/config';
import type { Engine } from '@cadence-detect/engine';
import type { Logger } from '@cadence-detect/logger';
import { createApp } from './app-middleware.js';
import { inMemoryBackends, type ServerBackends } from './backends/server-backends.js';
import { listenHttp } from './http-listener.js';
import type { AnalysisThreadsSpec } from './jobs/analysis-threads.js';
import { jobManagerFor, type JobManager } from './jobs/job-manager.js';
import { ServerMetrics } from './metrics.js';
import { OrganizationScans } from './scans/organization-scans.js';
import { startScanSchedule } from './scans/scan-schedule-start.js';
import { registerRoutes, routesBelow, type RouteTable } from './server-routes.js';

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
  readonly routes: RouteTable;
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
  const jobs = jobManagerFor({
    config,
    engine,
    logger,
    backends,
    metrics,
    cache,
    workers: config.webhook.maxWorkers,
    threads: options.analysisThreads,
  });
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
  // The route table is known once the routers are built: a 404 names the routes under its path.
  let routes: RouteTable = [];
  const app = createApp(config, log, (path) => routesBelow(routes, path));
  routes = registerRoutes(app, { config, engine, logger, backends, jobs, scans, metrics, cache });
  let server: http.Server | null = null;
  const handle = app.callback();
  // Koa answers its own errors (ctx.onerror): the promise it returns settles and never rejects.
  const listener: http.RequestListener = (request, response) => void handle(request, response);
  return {
    app,
    listener,
    routes,
    jobs,
    listen: async (port, host) => (server = await listenHttp(config, listener, port, host)),
    shutdown: () => stopServer({ server: () => server, config, scheduleStop, schedule, scans, jobs, backends }),
  };
}

/** What a server stops, in order: intake, the scan schedule, scans, jobs, the backends. */
interface StoppedParts {
  readonly server: () => http.Server | null;
  readonly config: ServerOptions['config'];
  readonly scheduleStop: AbortController;
  readonly schedule: ReturnType<typeof startScanSchedule>;
  readonly scans: OrganizationScans;
  readonly jobs: ReturnType<typeof jobManagerFor>;
  readonly backends: NonNullable<ServerOptions['backends']>;
}

/** Stops a server within one grace period (`limits.shutdown_grace_seconds`) for the whole stop, whatever each step takes of it. */
async function stopServer(parts: StoppedParts): Promise<void> {
  const server = parts.server();
  const closing = server ? new Promise<void>((resolve) => server.close(() => resolve())) : Promise.resolve();
  server?.closeIdleConnections();
  const deadline = Date.now() + parts.config.limits.shutdown_grace_seconds * 1000;
  const left = (): number => Math.max(0, deadline - Date.now());
  // A schedule still setting up (Redis away) gives up on this signal; waiting for it is bounded.
  parts.scheduleStop.abort();
  await Promise.race([
    parts.schedule.then((timer) => timer?.close()),
    new Promise((resolve) => setTimeout(resolve, Math.min(3000, left())).unref()),
  ]);
  await parts.scans.stop(left());
  await parts.jobs.shutdown(left());
  await parts.backends.close();
  // Streams ended with their error event; anything still open is cut.
  setTimeout(() => server?.closeAllConnections(), 1000).unref();
  await closing;
}
