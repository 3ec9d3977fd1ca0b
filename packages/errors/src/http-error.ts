import type { HttpErrorCode } from './codes.js';
import { ExpectedError } from './expected-error.js';

/**
 * An error that the HTTP layer renders as the contract's body `{error, message, details?}`.
 * Handlers throw it; one middleware renders it.
 */
export class HttpError extends ExpectedError {
  readonly status: number;
  readonly error: HttpErrorCode;
  readonly details: Record<string, unknown> | undefined;
  /** Extra top-level body fields (e.g. `retry_after`) and response headers. */
  readonly extra: Record<string, unknown>;
  readonly headers: Record<string, string>;

  constructor(
    status: number,
    error: HttpErrorCode,
    message: string,
    options: {
      details?: Record<string, unknown>;
      extra?: Record<string, unknown>;
      headers?: Record<string, string>;
    } = {},
  ) {
    // Always an answer rendered as a response body, never a bug: no stack.
    super(message, undefined, false);
    this.name = 'HttpError';
    this.status = status;
    this.error = error;
    this.details = options.details;
    this.extra = options.extra ?? {};
    this.headers = options.headers ?? {};
  }

  static invalidRequest(field: string, reason: string): HttpError {
    return new HttpError(400, 'invalid_request', `Invalid ${field}: ${reason}`, { details: { field, reason } });
  }

  static notFound(message = 'Not found'): HttpError {
    return new HttpError(404, 'not_found', message);
  }
}
