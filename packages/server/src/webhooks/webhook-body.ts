import type { Context, Middleware } from 'koa';
import getRawBody from 'raw-body';
import { HttpError } from '@cadence-detect/errors';
import { hasBody, unsupportedType } from '../middleware/body.js';
import type { UnverifiedBytes } from './unverified-bytes.js';

const RAW_BODY = Symbol('cadence.webhookBody');
const FORM_TYPE = 'application/x-www-form-urlencoded';
/** The charsets a webhook body may declare; GitHub and GitLab send UTF-8 (ASCII is a subset). */
const READABLE_CHARSETS = new Set(['utf-8', 'utf8', 'us-ascii']);

/**
 * Reads a webhook body as the bytes sent, up to `limit`, and parses nothing: the signature covers
 * those bytes, and it is checked before any parser sees what an unauthenticated sender wrote.
 * (koa-body, which the other routes use, always parses first.) A body over the limit is 413, a
 * body shorter or longer than its Content-Length is 400, both from raw-body's status.
 */
export function rawWebhookBody(limit: number, budget: UnverifiedBytes, types: readonly string[]): Middleware {
  const accepted = new Set(types);
  return async (ctx, next) => {
    // The header is read once here, for every check after it: its media type (an empty body has
    // none to check: the payload check then says what is missing), its charset (parameters are
    // parsed only when there are any) and whether the body is GitHub's form encoding.
    const contentType = ctx.get('content-type');
    const media = contentType.split(';', 1)[0]!.trim().toLowerCase();
    if (!accepted.has(media) && hasBody(ctx)) throw unsupportedType(types);
    const charset = contentType.includes(';') ? ctx.request.charset.toLowerCase() : '';
    if (charset && !READABLE_CHARSETS.has(charset)) {
      throw new HttpError(415, 'unsupported_media_type', `The body must be UTF-8, not ${charset}`);
    }
    const length = ctx.get('content-length');
    const declared = Number(length);
    if (Number.isFinite(declared) && declared > limit) {
      throw new HttpError(413, 'payload_too_large', `The body is ${declared} bytes; webhook bodies may be at most ${limit} bytes`);
    }
    // A body without a length may grow to the limit: it holds that much of the budget.
    const reserved = length && Number.isFinite(declared) ? declared : limit;
    if (!budget.tryReserve(reserved)) {
      throw new HttpError(503, 'overloaded', 'Too many webhook bodies are being received at once; retry shortly', {
        extra: { retry_after: 1 },
        headers: { 'Retry-After': '1' },
      });
    }
    try {
      const body = await getRawBody(ctx.req, { limit, length: length || null }).catch((error: unknown) => {
        throw closedByClient(ctx, error);
      });
      (ctx.state as Record<symbol, WebhookBody>)[RAW_BODY] = { bytes: body, formEncoded: media === FORM_TYPE };
      await next();
    } finally {
      budget.release(reserved);
    }
  };
}

/**
 * A sender that hung up while the request waited (for a shared rate-limit counter, say) leaves a
 * stream raw-body cannot read and reports as its own 500: that is the client leaving, answered 400
 * to nobody, not a server failure to log.
 */
function closedByClient(ctx: Context, error: unknown): unknown {
  const type = (error as { type?: unknown })?.type;
  if (type === 'stream.not.readable' && (ctx.req.destroyed || ctx.req.readableAborted)) {
    return new HttpError(400, 'invalid_request', 'The request was closed before its body arrived', { details: { field: 'body', reason: 'closed by the client' } });
  }
  return error;
}

/** What rawWebhookBody read: the bytes as sent, and whether they are GitHub's form encoding. */
interface WebhookBody {
  readonly bytes: Buffer;
  readonly formEncoded: boolean;
}

function webhookBody(ctx: Context): WebhookBody | undefined {
  return (ctx.state as Record<symbol, WebhookBody | undefined>)[RAW_BODY];
}

/** The bytes rawWebhookBody read: what the signature is computed over. */
export function webhookBytes(ctx: Context): Buffer {
  return webhookBody(ctx)?.bytes ?? Buffer.alloc(0);
}

/**
 * The JSON object a webhook carries, once its sender is authenticated: the body itself, or the
 * `payload` field of GitHub's form encoding. The push handlers read named fields from it and never
 * merge it into another object, so a `__proto__` key stays an inert own property.
 */
export function webhookPayload(ctx: Context): Record<string, unknown> {
  const text = webhookBytes(ctx).toString('utf8');
  const form = webhookBody(ctx)?.formEncoded === true;
  const field = form ? 'payload' : 'body';
  const json = form ? new URLSearchParams(text).get('payload') : text;
  if (json === null) throw HttpError.invalidRequest('payload', 'missing');
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch (error) {
    throw HttpError.invalidRequest(field, `not valid JSON (${(error as Error).message})`);
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw HttpError.invalidRequest(field, 'must be a JSON object');
  return value as Record<string, unknown>;
}
