import { errorMessage } from './error-message.js';
import { OPERATIONAL_CODES, type OperationalCode } from './codes.js';
import { ExpectedError } from './expected-error.js';

export interface CadenceErrorOptions {
  message?: string;
  cause?: unknown;
  /** Extra machine-readable facts (never secrets): shown in `details` of an HTTP error body. */
  details?: Record<string, unknown>;
}

/** Marks a CadenceError whichever copy of this package made it (see Symbol.hasInstance below). */
const BRAND = Symbol.for('@cadence-detect/errors:CadenceError');

/**
 * The one error type every layer throws for an expected failure: a job's `error_code`,
 * a stream's `error` event, the server's HTTP answer and the CLI's exit code all come from its `code`.
 */
export class CadenceError extends ExpectedError {
  readonly code: OperationalCode;
  readonly details: Record<string, unknown> | undefined;

  /**
   * `instanceof` holds for a CadenceError made by another copy of this package too: a plugin that
   * bundles its own, or a second instance of the module (a loader that evaluates it again). The
   * edges map every CadenceError by its code, whoever raised it.
   */
  static override [Symbol.hasInstance](value: unknown): boolean {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[BRAND] === true;
  }

  constructor(code: OperationalCode, options: CadenceErrorOptions = {}) {
    // ERR_INTERNAL, a bug, keeps its stack; a wrapped failure keeps the stack of its `cause`.
    super(
      options.message ?? OPERATIONAL_CODES[code],
      options.cause === undefined ? undefined : { cause: options.cause },
      code === 'ERR_INTERNAL',
    );
    this.name = 'CadenceError';
    this.code = code;
    this.details = options.details;
  }

  /** Set on the prototype, so it is neither an own property nor serialised. */
  declare readonly [BRAND]: true;

  static is(value: unknown, code?: OperationalCode): value is CadenceError {
    return value instanceof CadenceError && (code === undefined || value.code === code);
  }
}

Object.defineProperty(CadenceError.prototype, BRAND, { value: true });

/** Turns anything thrown into a CadenceError, keeping a CadenceError as it is. */
export function toCadenceError(error: unknown, fallback: OperationalCode = 'ERR_INTERNAL'): CadenceError {
  if (error instanceof CadenceError) return error;
  const message = errorMessage(error);
  return new CadenceError(fallback, { message, cause: error });
}
