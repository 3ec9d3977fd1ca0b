import { abortError, CadenceError, isOperationalCode, errorCode, errorMessage } from '@cadence-detect/errors';

/** The error a cancelled job rejects with (one implementation: @cadence-detect/errors' abortError). */
export const cancellationError: (signal: AbortSignal) => CadenceError = abortError;

export function throwIfCancelled(signal: AbortSignal): void {
  if (signal.aborted) throw cancellationError(signal);
}

/** Normalizes any failure of a job into a CadenceError carrying an operational code. */
export function asJobError(error: unknown, signal: AbortSignal): CadenceError {
  if (signal.aborted) return cancellationError(signal);
  if (error instanceof CadenceError) return error;
  const code = errorCode(error);
  if (isOperationalCode(code)) return new CadenceError(code, { message: errorMessage(error), cause: error });
  return new CadenceError('ERR_INTERNAL', {
    message: errorMessage(error),
    cause: error,
  });
}
