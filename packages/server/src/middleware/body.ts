import type { Middleware } from 'koa';
import type { KoaBodyMiddlewareOptions } from 'koa-body';
import { HttpError } from '@cadence-detect/errors';

/** 25 MiB (docs/http-api.md, Conventions) for webhooks (GitHub's own cap, form-encoded pushes included), 1 MiB elsewhere. */
export const WEBHOOK_BODY_LIMIT = 25 * 1024 * 1024;
export const API_BODY_LIMIT = 1024 * 1024;

/** Only these bodies are read; anything else is 415 before a byte is parsed. */
export function requireContentType(types: readonly string[]): Middleware {
  return async (ctx, next) => {
    // An empty body has no type to check (ctx.is answers null): the schema then says what is missing.
    if (hasBody(ctx) && !ctx.is(...types)) throw unsupportedType(types);
    await next();
  };
}

export function unsupportedType(types: readonly string[]): HttpError {
  return new HttpError(415, 'unsupported_media_type', `Content-Type must be ${types.join(' or ')}`);
}

export function hasBody(ctx: Parameters<Middleware>[0]): boolean {
  return ctx.get('transfer-encoding') !== '' || Number(ctx.get('content-length') || 0) > 0;
}

/** JSON bodies of the API routes (objects and arrays only). The webhooks read bytes instead: webhooks/webhook-body.ts. */
export function jsonBody(limit: number): Middleware {
  return bodyParser({
    json: true,
    jsonStrict: true,
    urlencoded: false,
    text: false,
    multipart: false,
    jsonLimit: limit,
    onError: (error) => {
      throw error;
    },
  });
}

/**
 * koa-body, imported when a route first reads a body. It brings zod and formidable (some 120
 * modules, about a third of a second of CPU), which would otherwise be loaded at every start: by a
 * server that restarts, by `cadence worker`, by a server that only answers webhooks (which read
 * bytes, not koa-body).
 */
export function bodyParser(options: Partial<KoaBodyMiddlewareOptions>): Middleware {
  let parser: Promise<Middleware> | undefined;
  return async (ctx, next) => {
    parser ??= import('../vendor/koa-body.js').then(({ koaBody }) => koaBody(options));
    const parse = await parser;
    await parse(ctx, next);
  };
}
