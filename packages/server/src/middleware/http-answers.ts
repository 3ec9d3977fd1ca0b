import {
  CadenceError,
  fieldOf,
  HttpError,
  jobErrorCode,
  type HttpErrorCode,
  type OperationalCode,
} from '@cadence-detect/errors';

interface Answer {
  readonly status: number;
  readonly error: HttpErrorCode;
  /** Seconds a client waits before retrying: the body's `retry_after` and the `Retry-After` header. */
  readonly retryAfter?: number;
}

/**
 * The one mapping of operational codes to HTTP answers (docs/http-api.md, Conventions): domain code
 * raises a CadenceError with its code, and only here is it given a status, the contract's `error`
 * and its extra fields. A code not listed is an analysis failing where the request waited for it:
 * 500 `internal_error` with the code as `details.reason`.
 */
const ANSWERS: Partial<Record<OperationalCode, Answer>> = {
  // A URL or path refused by the URL rules: `details` names the field (the request's `url` unless the error says).
  ERR_INVALID_SOURCE: { status: 400, error: 'invalid_request' },
  // A local path (where allowed) that does not exist: the request named it.
  ERR_PATH_NOT_FOUND: { status: 400, error: 'invalid_request' },
  ERR_JOB_NOT_FOUND: { status: 404, error: 'not_found' },
  ERR_JOB_FINAL: { status: 409, error: 'conflict' },
  ERR_SCAN_NOT_ALLOWED: { status: 403, error: 'forbidden' },
  // The queue is full, or the server is shutting down: either way, retry in 30 s.
  ERR_QUEUE_FULL: { status: 503, error: 'overloaded', retryAfter: 30 },
  ERR_SHUTTING_DOWN: { status: 503, error: 'overloaded', retryAfter: 30 },
  // Something the request must record cannot be reached now (Redis): nothing was recorded; retry in 5 s.
  ERR_DATABASE_CONNECTION_FAILED: { status: 503, error: 'unavailable', retryAfter: 5 },
  ERR_DELIVERY_IN_PROGRESS: { status: 503, error: 'unavailable', retryAfter: 5 },
};

/** The HTTP answer of a code, or null when the code is an analysis failure (500). */
export function httpAnswerOf(code: OperationalCode): Answer | null {
  return ANSWERS[code] ?? null;
}

/**
 * What a thrown error is answered with: an HttpError (route-level validation, the middleware's own
 * refusals) as it is, a CadenceError by its code, and the statuses koa-body's errors carry.
 */
export function httpErrorOf(thrown: unknown): HttpError {
  if (thrown instanceof HttpError) return thrown;
  if (thrown instanceof CadenceError) return fromCode(thrown);
  // Errors raised by koa-body (through raw-body) carry an HTTP status.
  const status = Number(fieldOf(thrown, 'status') ?? fieldOf(thrown, 'statusCode'));
  const message = thrown instanceof Error ? thrown.message : 'error';
  if (status === 413) {
    const limit = Number(fieldOf(thrown, 'limit'));
    return new HttpError(
      413,
      'payload_too_large',
      Number.isFinite(limit)
        ? `The request body is larger than the ${limit}-byte limit`
        : 'The request body is too large',
      Number.isFinite(limit) ? { details: { limit } } : {},
    );
  }
  if (status === 415) return new HttpError(415, 'unsupported_media_type', message);
  if (status === 400 || status === 422)
    return new HttpError(400, 'invalid_request', `Malformed request body: ${message}`, {
      details: { field: 'body', reason: message },
    });
  if (status === 404) return HttpError.notFound(message);
  if (status === 405) return new HttpError(405, 'method_not_allowed', message);
  return new HttpError(500, 'internal_error', 'The request failed', {
    details: { component: 'server', reason: 'unexpected error' },
  });
}

function fromCode(thrown: CadenceError): HttpError {
  const answer = httpAnswerOf(thrown.code);
  if (!answer) {
    // An analysis failure: the interface's code, and the engine's finer cause as the reason where it has one.
    const shown = jobErrorCode(thrown.code);
    return new HttpError(500, 'internal_error', thrown.message, {
      details: { component: 'engine', code: shown.code, reason: shown.reason ?? shown.code },
    });
  }
  if (answer.error === 'invalid_request') {
    const details = (thrown.details as { field?: string; reason?: string } | undefined) ?? {};
    return new HttpError(answer.status, answer.error, thrown.message, {
      details: { field: details.field ?? 'url', reason: details.reason ?? thrown.message },
    });
  }
  if (answer.retryAfter === undefined) return new HttpError(answer.status, answer.error, thrown.message);
  return new HttpError(answer.status, answer.error, thrown.message, {
    extra: { retry_after: answer.retryAfter },
    headers: { 'Retry-After': String(answer.retryAfter) },
  });
}
