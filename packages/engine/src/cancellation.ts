import { CadenceError, isOperationalCode } from '@cadence/errors';

/**
 * The error a cancelled job rejects with: the signal's reason when the host gave one (a job timeout,
 * a shutdown), else ERR_CANCELLED.
 */
export function cancellationError(signal: AbortSignal): CadenceError {
  const reason: unknown = signal.reason;
  if (reason instanceof CadenceError) return reason;
  return new CadenceError('ERR_CANCELLED');
}

export function throwIfCancelled(signal: AbortSignal): void {
  if (signal.aborted) throw cancellationError(signal);
}

/** Normalizes any failure of a job into a CadenceError carrying an operational code. */
export function asJobError(error: unknown, signal: AbortSignal): CadenceError {
  if (signal.aborted) return cancellationError(signal);
  if (error instanceof CadenceError) return error;
  const code = (error as { code?: unknown } | null)?.code;
  if (isOperationalCode(code)) return new CadenceError(code, { message: (error as Error).message, cause: error });
  return new CadenceError('ERR_INTERNAL', { message: error instanceof Error ? error.message : String(error), cause: error });
}
