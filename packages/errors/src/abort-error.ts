import { CadenceError } from './cadence-error.js';

/**
 * What work stopped by `signal` rejects with: the signal's reason when the host gave one (a job
 * timeout, a shutdown, a clone timeout: each a CadenceError with its code), else ERR_CANCELLED.
 */
export function abortError(signal: AbortSignal): CadenceError {
  const reason: unknown = signal.reason;
  return reason instanceof CadenceError ? reason : new CadenceError('ERR_CANCELLED');
}
