import { CadenceError, errorMessage } from '@cadence-detect/plugin-sdk';
import { fieldOf, retrying, retryAfterMs } from '@cadence-detect/forge-kit';

/** A provider failure sorted into what we do about it. */
export interface ClassifiedFailure {
  readonly kind: 'auth' | 'rate' | 'unavailable' | 'rejected';
  readonly status: number | null;
  readonly message: string;
}

export function classify(error: unknown): ClassifiedFailure {
  const given = fieldOf(error, 'status');
  const status = typeof given === 'number' ? given : null;
  const message = errorMessage(error);
  if (status === 401 || status === 403) return { kind: 'auth', status, message };
  if (status === 429) return { kind: 'rate', status, message };
  if (status === null || status >= 500 || status === 408) return { kind: 'unavailable', status, message };
  return { kind: 'rejected', status, message };
}

/** The `Retry-After` of a provider SDK's error (a fetch `Headers` or a plain record), in milliseconds. */
function retryAfterOf(error: unknown): number | null {
  const headers = fieldOf(error, 'headers');
  // Any Headers-like object (the SDK's fetch may not be the global one): read by its `get`.
  const get = fieldOf(headers, 'get');
  const value: unknown =
    typeof get === 'function' ? Reflect.apply(get, headers, ['retry-after']) : fieldOf(headers, 'retry-after');
  return retryAfterMs(typeof value === 'string' ? value : undefined);
}

export interface RetryPolicy {
  /** `ai.retry_count`. */
  readonly retries: number;
  /** `ai.retry_backoff_initial` in milliseconds. */
  readonly initialBackoffMs: number;
}

/**
 * Calls `attempt` up to 1 + retries times through the SDK's `retrying` (the one retry policy): 429,
 * 5xx, timeouts and connection errors are retried after an exponential back-off from
 * `initialBackoffMs` (or the server's Retry-After, at most a minute); 401/403 and other refusals
 * are not. The providers' SDKs retry nothing themselves (`maxRetries: 0`, provider.ts): theirs
 * would back off on their own schedule and ignore these settings. The job's signal cancels the wait
 * and the call.
 */
export async function withRetries<T>(
  attempt: () => Promise<T>,
  policy: RetryPolicy,
  signal: AbortSignal,
  scrub: (text: string) => string,
): Promise<T> {
  try {
    return await retrying(() => attempt(), {
      retries: policy.retries,
      initialDelayMs: policy.initialBackoffMs,
      signal,
      retryable: (error) => {
        if (signal.aborted) return false;
        const kind = classify(error).kind;
        if (kind === 'auth' || kind === 'rejected') return false;
        const afterMs = retryAfterOf(error);
        return afterMs === null ? true : { afterMs };
      },
    });
  } catch (error) {
    if (signal.aborted) throw signal.reason;
    throw toAiError(classify(error), policy.retries, scrub);
  }
}

function toAiError(failure: ClassifiedFailure, retries: number, scrub: (text: string) => string): CadenceError {
  const detail = scrub(failure.message).slice(0, 300);
  switch (failure.kind) {
    case 'auth':
      return new CadenceError('ERR_AI_API_KEY_INVALID', {
        message: `The AI provider refused the key (${failure.status})`,
      });
    case 'rate':
      return new CadenceError('ERR_AI_RATE_LIMIT', {
        message: `The AI provider kept answering 429 after ${retries} retries`,
      });
    case 'rejected':
      return new CadenceError('ERR_AI_PROVIDER_UNAVAILABLE', {
        message: `The AI provider refused the request (${failure.status}): ${detail}`,
      });
    default:
      return new CadenceError('ERR_AI_PROVIDER_UNAVAILABLE', {
        message: `The AI provider is unavailable after ${retries} retries (${failure.status ?? 'no answer'}): ${detail}`,
      });
  }
}
