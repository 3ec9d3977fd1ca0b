import type Router from '@koa/router';
import type Koa from 'koa';
import type { Middleware } from 'koa';
import type { CadenceConfig } from '@cadence-detect/config';
import type { Engine } from '@cadence-detect/engine';
import type { Logger } from '@cadence-detect/logger';
import type { ServerBackends } from '../backends/server-backends.js';
import type { JobManager } from '../jobs/job-manager.js';
import type { ServerMetrics } from '../metrics.js';
import type { ServerResultCache } from '../result-cache.js';
import type { OrganizationScans } from '../scans/organization-scans.js';

/**
 * Where a route module puts its routes: `open` (no token: /health, the webhooks, the dashboard's
 * pages, /metrics when public) or `guarded` (behind the API token), and the app itself for what
 * must run ahead of both routers (the webhooks' exact paths).
 */
export interface ServerRouters {
  readonly app: Koa;
  readonly open: Router;
  readonly guarded: Router;
}

/** The checks routes share: built once, so that a limit counts across every route that takes it. */
export interface RouteGuards {
  /** Routes that start jobs: the cross-site check, then the analyses rate limit. */
  readonly startsJobs: readonly Middleware[];
  readonly crossSite: Middleware;
  readonly queryLimit: Middleware;
  readonly metricsLimit: Middleware;
}

/** The server's parts a route module may use; each module names those it does (RegisterRoutes). */
export interface RouteDeps {
  readonly config: CadenceConfig;
  readonly engine: Engine;
  readonly logger: Logger;
  readonly backends: ServerBackends;
  readonly jobs: JobManager;
  readonly scans: OrganizationScans;
  readonly metrics: ServerMetrics;
  readonly cache: ServerResultCache;
  readonly guards: RouteGuards;
}

/**
 * The one shape of a route module, as Koa keeps middleware small: it registers its routes, nothing
 * else. `Uses` names the parts of the server it uses, and it sees those alone (as a Fastify plugin
 * sees what its encapsulation gives it): `RegisterRoutes<'jobs' | 'guards'>`.
 */
export type RegisterRoutes<Uses extends keyof RouteDeps = keyof RouteDeps> = (
  routers: ServerRouters,
  deps: Pick<RouteDeps, Uses>,
) => void;
