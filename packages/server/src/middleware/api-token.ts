import type { Middleware } from 'koa';
import { HttpError } from '@cadence-detect/errors';
import { constantTimeEqual } from '@cadence-detect/forge-kit';
import { sameOriginRequest, Sessions } from './session.js';
import type { SessionRevocations } from './session-revocations.js';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * docs/http-api.md, Authentication: with a token configured, `Authorization: Bearer <token>` or 401. The dashboard's
 * session cookie (POST /session) counts too; a cookie-authenticated request that changes
 * something must also come from this server's own origin.
 */
export function requireApiToken(token: string | null, revocations: SessionRevocations): Middleware {
  const sessions = token ? new Sessions(token, revocations) : null;
  return async (ctx, next) => {
    if (token) {
      const header = ctx.get('authorization');
      const presented = /^Bearer\s+(.+)$/i.exec(header)?.[1]?.trim() ?? '';
      if (!constantTimeEqual(presented, token)) {
        if (!header && sessions && (await sessions.valid(Sessions.presented(ctx)))) {
          if (!SAFE_METHODS.has(ctx.method) && !sameOriginRequest(ctx)) {
            throw new HttpError(
              403,
              'forbidden',
              'A request that changes something must come from this server\u2019s own pages',
            );
          }
        } else {
          throw new HttpError(401, 'unauthorized', 'A valid API token is required (Authorization: Bearer <token>)', {
            headers: { 'WWW-Authenticate': 'Bearer' },
          });
        }
      }
    }
    await next();
  };
}
