import type { Middleware } from 'koa';
import { Koa } from './vendor/koa.js';
import { HttpError } from '@cadence-detect/errors';
import type { CadenceConfig } from '@cadence-detect/config';
import type { Logger } from '@cadence-detect/logger';
import { requireAllowedHost } from './middleware/allowed-host.js';
import { clientAddress } from './middleware/client-address.js';
import { errorBody } from './middleware/error-body.js';

/**
 * The Koa app with what every request passes first: the error body, the base path, the request
 * log (debug), the client address and, without a token, the allowed host names. `routesUnder`
 * names the routes under a path for a 404 (known once the routers are built).
 */
export function createApp(config: CadenceConfig, log: Logger, routesUnder: (path: string) => string[]): Koa {
  // The client address is ours to compute (clientAddress): Koa's proxy mode trusts the leftmost X-Forwarded-For entry.
  const app = new Koa({ proxy: config.api.trust_proxy });
  app.silent = true;
  app.use(errorBody(log, routesUnder));
  if (config.server.base_path) app.use(underBasePath(config.server.base_path));
  if (config.logging.level === 'debug') app.use(requestLog(log));
  app.use(clientAddress(config.api.trust_proxy, config.api.trusted_proxies));
  // Without a token, a DNS-rebound page would pass as this server's own origin (middleware/allowed-host.ts).
  if (config.api.token === null) {
    app.use(
      requireAllowedHost({
        publicUrl: config.server.public_url,
        allowedHosts: config.api.allowed_hosts,
        trustProxy: config.api.trust_proxy,
        trustedProxies: config.api.trusted_proxies,
        exempt: (path) => path === '/health' || path.startsWith('/webhooks/'),
      }),
    );
  }
  return app;
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
    if (!ctx.path.startsWith(`${basePath}/`))
      throw HttpError.notFound(`Nothing here: this server answers under ${basePath}/`);
    ctx.path = ctx.path.slice(basePath.length);
    await next();
  };
}

function requestLog(log: Logger): Middleware {
  return async (ctx, next) => {
    const started = performance.now();
    try {
      await next();
    } finally {
      log.debug('request', {
        method: ctx.method,
        path: ctx.path,
        status: ctx.status,
        duration_ms: performance.now() - started,
      });
    }
  };
}
