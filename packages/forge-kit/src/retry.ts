import { setTimeout as sleep } from 'node:timers/promises';
import pRetry from 'p-retry';

/**
 * How a call is asked again: the one retry policy of Cadence and its plugins.
 * @since 1.6
 */
export interface RetryOptions {
  /** Further attempts after the first (0: none). */
  readonly retries: number;
  /** The wait before the first retry; each later wait doubles it. */
  readonly initialDelayMs: number;
  /** No wait is longer than this, a server's `Retry-After` included (default one minute). */
  readonly maxDelayMs?: number;
  /** Cancels the call and any wait: the promise rejects with the signal's reason. */
  readonly signal?: AbortSignal;
  /**
   * Whether a failure is worth another attempt (default: every failure). `{ afterMs }` says yes and
   * how long the server asked to wait (a `Retry-After`), in place of the back-off.
   */
  readonly retryable?: (error: unknown) => boolean | { readonly afterMs: number };
}

/**
 * Calls `attempt` until it succeeds, a failure is not `retryable`, or the retries are spent; then
 * rejects with the last failure as thrown. Built on p-retry, with the wait chosen here so that a
 * server's `Retry-After` can replace the exponential back-off. A `TypeError` other than a network
 * failure is a bug, never retried.
 */
export function retrying<T>(attempt: (attemptNumber: number) => Promise<T>, options: RetryOptions): Promise<T> {
  const retryable = options.retryable ?? (() => true);
  const maxDelayMs = options.maxDelayMs ?? 60_000;
  return pRetry(attempt, {
    retries: options.retries,
    minTimeout: 0,
    ...(options.signal ? { signal: options.signal } : {}),
    shouldRetry: async ({ error, retriesConsumed }) => {
      const verdict = retryable(error);
      if (verdict === false) return false;
      const backoff = options.initialDelayMs * 2 ** retriesConsumed;
      const wait = Math.max(0, Math.min(maxDelayMs, typeof verdict === 'object' ? verdict.afterMs : backoff));
      if (wait > 0) await pause(wait, options.signal);
      return true;
    },
  });
}

/** Waits, or rejects with the signal's own reason (not the timer's AbortError) when it aborts. */
async function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  try {
    await sleep(ms, undefined, signal ? { signal } : {});
  } catch (error) {
    throw signal?.aborted ? signal.reason : error;
  }
}

/** A `Retry-After` header (seconds or an HTTP date) in milliseconds, or null when absent or unreadable. */
export function retryAfterMs(value: string | null | undefined, now = Date.now()): number | null {
  if (!value) return null;
  const seconds = Number(value);
  const ms = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(value) - now;
  return Number.isFinite(ms) ? Math.max(0, ms) : null;
}
