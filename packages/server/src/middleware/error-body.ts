import type { Middleware } from 'koa';
import { CadenceError, HttpError } from '@cadence-detect/errors';
import type { Logger } from '@cadence-detect/logger';

/**
 * The one place errors become responses: every error body is `{error, message, details?}`
 * (docs/http-api.md, Conventions). Handlers only throw.
 */
export function errorBody(logger: Logger): Middleware {
  return async (ctx, next) => {
    try {
      await next();
      if (ctx.status === 404 && ctx.body === undefined) throw HttpError.notFound(`No route for ${ctx.method} ${ctx.path}`);
      // The router answered 405/501 with its Allow header and no body: the contract's body, the header kept.
      if ((ctx.status === 405 || ctx.status === 501) && !ctx.body) throw new HttpError(405, 'method_not_allowed', `${ctx.method} is not allowed on ${ctx.path} (allowed: ${ctx.response.get('Allow') || 'none'})`);
    } catch (thrown) {
      const error = toHttpError(thrown);
      if (error.status >= 500 && error.error === 'internal_error') logger.error('request failed', { path: ctx.path, error: String((thrown as Error)?.stack ?? thrown) });
      ctx.status = error.status;
      for (const [name, value] of Object.entries(error.headers)) ctx.set(name, value);
      ctx.body = { error: error.error, message: error.message, ...(error.details ? { details: error.details } : {}), ...error.extra };
    }
  };
}

function toHttpError(thrown: unknown): HttpError {
  if (thrown instanceof HttpError) return thrown;
  if (thrown instanceof CadenceError) {
    if (thrown.code === 'ERR_INVALID_SOURCE') {
      const details = (thrown.details as { field?: string; reason?: string } | undefined) ?? {};
      return new HttpError(400, 'invalid_request', thrown.message, { details: { field: details.field ?? 'url', reason: details.reason ?? thrown.message } });
    }
    return new HttpError(500, 'internal_error', thrown.message, { details: { component: 'engine', reason: thrown.code } });
  }
  // Errors raised by koa-body (through raw-body) carry an HTTP status.
  const status = Number((thrown as { status?: unknown; statusCode?: unknown })?.status ?? (thrown as { statusCode?: unknown })?.statusCode);
  const message = thrown instanceof Error ? thrown.message : 'error';
  if (status === 413) {
    const limit = Number((thrown as { limit?: unknown }).limit);
    return new HttpError(413, 'payload_too_large', Number.isFinite(limit) ? `The request body is larger than the ${limit}-byte limit` : 'The request body is too large', Number.isFinite(limit) ? { details: { limit } } : {});
  }
  if (status === 415) return new HttpError(415, 'unsupported_media_type', message);
  if (status === 400 || status === 422) return new HttpError(400, 'invalid_request', `Malformed request body: ${message}`, { details: { field: 'body', reason: message } });
  if (status === 404) return HttpError.notFound(message);
  if (status === 405) return new HttpError(405, 'method_not_allowed', message);
  return new HttpError(500, 'internal_error', 'The request failed', { details: { component: 'server', reason: 'unexpected error' } });
}
