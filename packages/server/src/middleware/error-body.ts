import type { Middleware } from 'koa';
import { HttpError } from '@cadence-detect/errors';
import type { Logger } from '@cadence-detect/logger';
import { httpErrorOf } from './http-answers.js';

/**
 * The one place errors become responses: every error body is `{error, message, details?}`
 * (docs/http-api.md, Conventions), its status and fields chosen by http-answers.ts. Handlers only throw.
 */
export function errorBody(logger: Logger, routesUnder: (path: string) => readonly string[] = () => []): Middleware {
  return async (ctx, next) => {
    try {
      await next();
      if (ctx.status === 404 && ctx.body === undefined) {
        // A guessed path (POST /api/analyze) is told the routes that exist below it.
        const below = routesUnder(ctx.path);
        throw HttpError.notFound(
          `No route for ${ctx.method} ${ctx.path}${below.length > 0 ? `; routes under it: ${below.join(', ')}` : ''}`,
        );
      }
      // The router answered 405/501 with its Allow header and no body: the contract's body, the header kept.
      if ((ctx.status === 405 || ctx.status === 501) && !ctx.body)
        throw new HttpError(
          405,
          'method_not_allowed',
          `${ctx.method} is not allowed on ${ctx.path} (allowed: ${ctx.response.get('Allow') || 'none'})`,
        );
    } catch (thrown) {
      const error = httpErrorOf(thrown);
      if (error.status >= 500 && error.error === 'internal_error')
        logger.error('request failed', { path: ctx.path, error: String((thrown as Error | null)?.stack ?? thrown) });
      ctx.status = error.status;
      for (const [name, value] of Object.entries(error.headers)) ctx.set(name, value);
      ctx.body = {
        error: error.error,
        message: error.message,
        ...(error.details ? { details: error.details } : {}),
        ...error.extra,
      };
    }
  };
}
