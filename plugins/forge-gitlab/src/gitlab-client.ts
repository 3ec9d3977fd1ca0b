import { Gitlab } from '@gitbeaker/rest';
import { retrying, retryAfterMs } from '@cadence-detect/forge-kit';
import type { GitlabCredentials } from './options.js';

/**
 * The one GitLab client of the plugin, for reporting and look-ups alike. Gitbeaker retries 429 and
 * 502 itself, on a schedule of its own that no setting reaches; past that, and for other server
 * errors, calls go through the plugin SDK's `retrying()` (the one retry policy: exponential back-off
 * from 1 s, a server's Retry-After in its place, stopped by a signal). Loaded on first use.
 */
export type GitlabApi = InstanceType<typeof Gitlab>;

export function gitlabClient(credentials: GitlabCredentials, settings: { readonly timeoutMs: number }): GitlabApi {
  return new Gitlab({ host: credentials.host, token: credentials.token, queryTimeout: settings.timeoutMs });
}

/** How a failure counts: its operational code, its HTTP status, and how long the forge asked to wait. */
export interface Classified {
  readonly code: string;
  readonly status: number | null;
  readonly retryAfterMs: number | null;
}

/** gitbeaker's errors: a request error carries the response; a retry error means it gave up on 429/502. */
export function classify(error: unknown): Classified {
  const e = error as { name?: string; message?: string; cause?: { response?: Response } } | null;
  const response = e?.cause?.response;
  const status = response?.status ?? null;
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- A response that is not fetch's (an older gitbeaker's) may have no headers or no `get`
  const retryAfter = retryAfterMs(response?.headers?.get?.('retry-after'));
  if (e?.name === 'GitbeakerRetryError')
    return {
      code: /429/.test(e.message ?? '') ? 'ERR_FORGE_RATE_LIMIT' : 'ERR_FORGE_UNAVAILABLE',
      status: null,
      retryAfterMs: null,
    };
  if (status === 429) return { code: 'ERR_FORGE_RATE_LIMIT', status, retryAfterMs: retryAfter };
  if (status === 401 || status === 403 || status === 404) return { code: 'ERR_FORGE_AUTH', status, retryAfterMs: null };
  if (status === null || status >= 500) return { code: 'ERR_FORGE_UNAVAILABLE', status, retryAfterMs: retryAfter };
  return { code: 'ERR_REPORTER_FAILED', status, retryAfterMs: null };
}

/** A look-up's call: a passing failure (an HTTP 5xx) asked again twice, 1 and 2 s later, within the look-up's signal; anything else at once. */
export function lookupCall<T>(call: () => Promise<T>, signal: AbortSignal): Promise<T> {
  return retrying(call, {
    retries: 2,
    initialDelayMs: 1000,
    signal,
    retryable: (error) => {
      const status = classify(error).status;
      return status !== null && status >= 500;
    },
  });
}
