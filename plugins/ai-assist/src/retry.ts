import { CadenceError } from '@cadence-detect/plugin-sdk';

/** A provider failure sorted into what we do about it. */
export interface ClassifiedFailure {
  readonly kind: 'auth' | 'rate' | 'unavailable' | 'rejected';
  readonly status: number | null;
  readonly retryAfterMs: number | null;
  readonly message: string;
}

export function classify(error: unknown): ClassifiedFailure {
  const status = typeof (error as { status?: unknown })?.status === 'number' ? (error as { status: number }).status : null;
  const message = error instanceof Error ? error.message : String(error);
  const retryAfterMs = retryAfter((error as { headers?: unknown })?.headers);
  if (status === 401 || status === 403) return { kind: 'auth', status, retryAfterMs, message };
  if (status === 429) return { kind: 'rate', status, retryAfterMs, message };
  if (status === null || status >= 500 || status === 408) return { kind: 'unavailable', status, retryAfterMs, message };
  return { kind: 'rejected', status, retryAfterMs, message };
}

/** `Retry-After` in seconds or as an HTTP date, in milliseconds (capped at a minute). */
export function retryAfter(headers: unknown): number | null {
  const value = headers && typeof (headers as Headers).get === 'function' ? (headers as Headers).get('retry-after') : (headers as Record<string, string> | undefined)?.['retry-after'];
  if (!value) return null;
  const seconds = Number(value);
  const ms = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(value) - Date.now();
  return Number.isFinite(ms) ? Math.min(60_000, Math.max(0, ms)) : null;
}

export interface RetryPolicy {
  readonly retries: number;
  readonly initialBackoffMs: number;
}

/**
 * Calls `attempt` up to 1 + retries times: 429, 5xx, timeouts and connection errors are retried
 * after an exponential back-off from `initialBackoffMs` (or the server's Retry-After); 401/403 and
 * other refusals are not. The job's signal cancels the wait and the call.
 */
export async function withRetries<T>(attempt: () => Promise<T>, policy: RetryPolicy, signal: AbortSignal, scrub: (text: string) => string): Promise<T> {
  let last: ClassifiedFailure | null = null;
  for (let i = 0; i <= policy.retries; i++) {
    if (signal.aborted) throw signal.reason;
    try {
      return await attempt();
    } catch (error) {
      if (signal.aborted) throw signal.reason;
      last = classify(error);
      if (last.kind === 'auth' || last.kind === 'rejected' || i === policy.retries) break;
      await sleep(last.retryAfterMs ?? policy.initialBackoffMs * 2 ** i, signal);
    }
  }
  throw toAiError(last!, policy.retries, scrub);
}

function toAiError(failure: ClassifiedFailure, retries: number, scrub: (text: string) => string): CadenceError {
  const detail = scrub(failure.message).slice(0, 300);
  switch (failure.kind) {
    case 'auth':
      return new CadenceError('ERR_AI_API_KEY_INVALID', { message: `The AI provider refused the key (${failure.status})` });
    case 'rate':
      return new CadenceError('ERR_AI_RATE_LIMIT', { message: `The AI provider kept answering 429 after ${retries} retries` });
    case 'rejected':
      return new CadenceError('ERR_AI_PROVIDER_UNAVAILABLE', { message: `The AI provider refused the request (${failure.status}): ${detail}` });
    default:
      return new CadenceError('ERR_AI_PROVIDER_UNAVAILABLE', {
        message: `The AI provider is unavailable after ${retries} retries (${failure.status ?? 'no answer'}): ${detail}`,
      });
  }
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
