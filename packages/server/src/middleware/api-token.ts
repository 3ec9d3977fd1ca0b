import type { Middleware } from 'koa';
import { HttpError } from '@cadence/errors';
import { constantTimeEqual } from '../webhooks/constant-time.js';

/** Decisions §8: with a token configured, `Authorization: Bearer <token>` or 401. */
export function requireApiToken(token: string | null): Middleware {
  return async (ctx, next) => {
    if (token) {
      const header = ctx.get('authorization');
      const presented = /^Bearer\s+(.+)$/i.exec(header)?.[1]?.trim() ?? '';
      if (!constantTimeEqual(presented, token)) {
        throw new HttpError(401, 'unauthorized', 'A valid API token is required (Authorization: Bearer <token>)', { headers: { 'WWW-Authenticate': 'Bearer' } });
      }
    }
    await next();
  };
}
