import type { Context, Middleware } from 'koa';
import { errorMessage, HttpError, isRecord, itemAt } from '@cadence-detect/errors';
import { hasBody, unsupportedType } from '../middleware/body.js';
import type { UnverifiedBytes } from './unverified-bytes.js';

const RAW_BODY = Symbol('cadence.webhookBody');
const FORM_TYPE = 'application/x-www-form-urlencoded';
/** The charsets a webhook body may declare; GitHub and GitLab send UTF-8 (ASCII is a subset). */
const READABLE_CHARSETS = new Set(['utf-8', 'utf8', 'us-ascii']);

/**
 * How fast a webhook body must arrive: nothing is asked of its first 2 s, after that it must have
 * brought 16 KiB for every second past those two (a forge sends a delivery whole in milliseconds).
 * A slower body is cut with 408 `request_timeout`: a sender trickling bytes holds its connection
 * and its share of the budget for seconds, not for the server's whole request timeout.
 */
export interface BodyPace {
  readonly graceMs: number;
  readonly minBytesPerSecond: number;
}
export const WEBHOOK_BODY_PACE: BodyPace = { graceMs: 2000, minBytesPerSecond: 16 * 1024 };

/**
 * Reads a webhook body as the bytes sent, up to `limit`, and parses nothing: the signature covers
 * those bytes, and it is checked before any parser sees what an unauthenticated sender wrote.
 * (koa-body, which the other routes use, always parses first.) A declared length over the limit is
 * 413 before a byte is read; a body shorter or longer than its Content-Length is 400. Each chunk is
 * charged to `budget` (all bodies together, and the client's share) as it arrives: 503 `overloaded`
 * when it does not fit. The held bytes are given back once the request is answered.
 */
export function rawWebhookBody(
  limit: number,
  budget: UnverifiedBytes,
  types: readonly string[],
  pace: BodyPace = WEBHOOK_BODY_PACE,
): Middleware {
  const accepted = new Set(types);
  return async (ctx, next) => {
    // The header is read once here, for every check after it: its media type (an empty body has
    // none to check: the payload check then says what is missing), its charset (parameters are
    // parsed only when there are any) and whether the body is GitHub's form encoding.
    const contentType = ctx.get('content-type');
    const media = itemAt(contentType.split(';', 1), 0).trim().toLowerCase();
    if (!accepted.has(media) && hasBody(ctx)) throw unsupportedType(types);
    const charset = contentType.includes(';') ? ctx.request.charset.toLowerCase() : '';
    if (charset && !READABLE_CHARSETS.has(charset)) {
      throw new HttpError(415, 'unsupported_media_type', `The body must be UTF-8, not ${charset}`);
    }
    const length = ctx.get('content-length');
    const declared = length ? Number(length) : null;
    if (declared !== null && Number.isFinite(declared) && declared > limit) {
      throw new HttpError(
        413,
        'payload_too_large',
        `The body is ${declared} bytes; webhook bodies may be at most ${limit} bytes`,
      );
    }
    const held = { client: ctx.ip, bytes: 0 };
    try {
      const body = await readBody(
        ctx,
        limit,
        declared !== null && Number.isFinite(declared) ? declared : null,
        budget,
        held,
        pace,
      );
      (ctx.state as Record<symbol, WebhookBody>)[RAW_BODY] = { bytes: body, formEncoded: media === FORM_TYPE };
      await next();
    } finally {
      budget.release(held.client, held.bytes);
    }
  };
}

/** Why a body stopped being read: the answer, and the connection closed after it (the rest of the body is never read). */
function cut(status: 408 | 413 | 503, message: string): HttpError {
  if (status === 503) {
    return new HttpError(503, 'overloaded', message, {
      extra: { retry_after: 1 },
      headers: { 'Retry-After': '1', Connection: 'close' },
    });
  }
  return new HttpError(status, status === 408 ? 'request_timeout' : 'payload_too_large', message, {
    headers: { Connection: 'close' },
  });
}

function readBody(
  ctx: Context,
  limit: number,
  declared: number | null,
  budget: UnverifiedBytes,
  held: { client: string; bytes: number },
  pace: BodyPace,
): Promise<Buffer> {
  const request = ctx.req;
  // A sender that hung up while the request waited (for a shared rate-limit counter, say) left a
  // stream that cannot be read: that is the client leaving, answered 400 to nobody, not a server failure.
  if (request.destroyed || request.readableAborted) return Promise.reject(closedByClient());
  return new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let received = 0;
    let done = false;
    const finish = (error: HttpError | null): void => {
      if (done) return;
      done = true;
      paceChecks.delete(check);
      request.off('data', onData);
      request.off('end', onEnd);
      request.off('close', onClose);
      request.off('error', onClose);
      if (error === null) {
        resolve(chunks.length === 1 ? itemAt(chunks, 0) : Buffer.concat(chunks, received));
        return;
      }
      request.pause();
      reject(error);
    };
    const onData = (chunk: Buffer): void => {
      received += chunk.length;
      const tooLong = overLength(received, limit, declared);
      if (tooLong) {
        finish(tooLong);
        return;
      }
      if (!budget.tryReserve(held.client, chunk.length)) {
        finish(cut(503, 'Too many webhook bodies are being received at once; retry shortly'));
        return;
      }
      held.bytes += chunk.length;
      chunks.push(chunk);
    };
    const onEnd = (): void =>
      finish(declared !== null && received !== declared ? lengthMismatch(declared, received) : null);
    const onClose = (): void => finish(closedByClient());
    const check = paceCheck(performance.now(), pace, () => received, finish);
    paceChecks.add(check);
    if (sweeper === null) sweeper = setInterval(sweep, SWEEP_MS).unref();
    request.on('data', onData);
    request.on('end', onEnd);
    request.on('close', onClose);
    request.on('error', onClose);
  });
}

/** Why a body that has reached `received` bytes is cut there, or null while it may go on. */
function overLength(received: number, limit: number, declared: number | null): HttpError | null {
  if (received > limit) return cut(413, `The body is larger than ${limit} bytes, the most a webhook body may be`);
  if (declared !== null && received > declared) return lengthMismatch(declared, received);
  return null;
}

/**
 * One body's pace check, run by one sweep for all bodies being read (no timer per request): it
 * cuts the body once it falls behind its pace.
 */
function paceCheck(
  started: number,
  pace: BodyPace,
  received: () => number,
  finish: (error: HttpError) => void,
): (now: number) => void {
  return (now) => {
    const elapsed = now - started;
    if (elapsed < pace.graceMs + (received() * 1000) / pace.minBytesPerSecond) return;
    finish(
      cut(
        408,
        `The body arrived slower than ${pace.minBytesPerSecond} bytes a second after its first ${pace.graceMs / 1000} s (${received()} bytes in ${(elapsed / 1000).toFixed(1)} s)`,
      ),
    );
  };
}

/** How often the bodies being read are checked against their pace (a cut comes at most this late). */
const SWEEP_MS = 250;
const paceChecks = new Set<(now: number) => void>();
let sweeper: NodeJS.Timeout | null = null;

/** Stops itself once a sweep finds nothing to check (starting it per request would cost a timer each). */
function sweep(): void {
  if (paceChecks.size === 0) {
    if (sweeper) clearInterval(sweeper);
    sweeper = null;
    return;
  }
  const now = performance.now();
  for (const check of paceChecks) check(now);
}

function lengthMismatch(declared: number, received: number): HttpError {
  const reason =
    received > declared
      ? `more than the ${declared} bytes of its Content-Length`
      : `${received} of the ${declared} bytes of its Content-Length`;
  return new HttpError(400, 'invalid_request', `Malformed request body: ${reason}`, {
    details: { field: 'body', reason },
    headers: { Connection: 'close' },
  });
}

function closedByClient(): HttpError {
  return new HttpError(400, 'invalid_request', 'The request was closed before its body arrived', {
    details: { field: 'body', reason: 'closed by the client' },
  });
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
    throw HttpError.invalidRequest(field, `not valid JSON (${errorMessage(error)})`);
  }
  if (!isRecord(value)) throw HttpError.invalidRequest(field, 'must be a JSON object');
  return value;
}
