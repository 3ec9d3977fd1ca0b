import { OPERATIONAL_CODES, type OperationalCode } from './codes.js';
import { ExpectedError } from './expected-error.js';

export interface CadenceErrorOptions {
  message?: string;
  cause?: unknown;
  /** Extra machine-readable facts (never secrets): shown in `details` of an HTTP error body. */
  details?: Record<string, unknown>;
}

/**
 * The one error type every layer throws for an expected failure: a job's `error_code`,
 * a stream's `error` event and the CLI's exit message all come from its `code`.
 */
export class CadenceError extends ExpectedError {
  readonly code: OperationalCode;
  readonly details: Record<string, unknown> | undefined;

  constructor(code: OperationalCode, options: CadenceErrorOptions = {}) {
    // ERR_INTERNAL, a bug, keeps its stack; a wrapped failure keeps the stack of its `cause`.
    super(options.message ?? OPERATIONAL_CODES[code], options.cause === undefined ? undefined : { cause: options.cause }, code === 'ERR_INTERNAL');
    this.name = 'CadenceError';
    this.code = code;
    this.details = options.details;
  }

  static is(value: unknown, code?: OperationalCode): value is CadenceError {
    return value instanceof CadenceError && (code === undefined || value.code === code);
  }
}

/** Turns anything thrown into a CadenceError, keeping a CadenceError as it is. */
export function toCadenceError(error: unknown, fallback: OperationalCode = 'ERR_INTERNAL'): CadenceError {
  if (error instanceof CadenceError) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new CadenceError(fallback, { message, cause: error });
}
