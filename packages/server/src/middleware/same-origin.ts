import type { Middleware } from 'koa';
import { HttpError } from '@cadence-detect/errors';

/**
 * Routes that start jobs refuse browser requests from other sites: a page elsewhere could otherwise
 * start clones through an <iframe> or a form (GET /api/stream/repository?url=..., or a form POST to
 * a webhook of an instance run without a secret). Browsers mark
 * such requests with Sec-Fetch-Site or Origin; requests with neither header (curl, the forges'
 * webhooks, other servers) pass. CORS stays closed: no Access-Control-* header is ever sent.
 */
export function refuseCrossSite(allowedOrigins: readonly string[]): Middleware {
  const allowed = new Set(allowedOrigins.map((origin) => origin.replace(/\/+$/, '').toLowerCase()));
  return (ctx, next) => {
    const site = ctx.get('sec-fetch-site').toLowerCase();
    const origin = ctx.get('origin');
    // What forges and other servers send (neither header) passes without building the own origin.
    if (!site && !origin) return next();
    const ownOrigin = `${ctx.protocol}://${ctx.host}`.toLowerCase();
    const originAllowed = !origin || origin.toLowerCase() === ownOrigin || allowed.has(origin.toLowerCase());
    const siteAllowed = site !== 'cross-site' && site !== 'same-site';
    // An allowed origin may come from another site: its listing is the deployer's consent.
    if (!originAllowed || (!siteAllowed && !(origin && allowed.has(origin.toLowerCase())))) {
      throw new HttpError(
        403,
        'forbidden',
        'Requests from another site may not start analyses (api.allowed_origins lists the origins that may)',
      );
    }
    return next();
  };
}
