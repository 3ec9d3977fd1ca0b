import { describeRequestFailure, retrying, retryAfterMs } from '@cadence-detect/plugin-sdk';

/**
 * The one Gitea client of the plugin: Node's fetch against the instance's API (Gitea and Forgejo
 * have no client library of their own that Cadence takes), `Authorization: token …`, JSON both
 * ways, no redirect followed (the token goes to the configured API only).
 */
export interface GiteaCredentials {
  /** The API's base, `https://codeberg.org/api/v1`, without a trailing slash. */
  readonly api: string;
  readonly token: string;
}

/** The one place that decides whether Gitea is configured: a token and the API's address. */
export function giteaCredentials(options: {
  readonly token: string | null;
  readonly api_url: string | null;
}): GiteaCredentials | null {
  if (!options.token || !options.api_url) return null;
  return { api: options.api_url.replace(/\/+$/, ''), token: options.token };
}

/** An answer that is not 2xx: its status and how long the forge asked to wait. */
export class GiteaHttpError extends Error {
  constructor(
    readonly status: number,
    readonly retryAfterMs: number | null,
    message: string,
  ) {
    super(message);
    this.name = 'GiteaHttpError';
  }
}

/** `owner/name` as two path segments, each encoded. */
export function repoPath(repository: string): string {
  return repository
    .split('/')
    .map((part) => encodeURIComponent(part))
    .join('/');
}

export async function giteaRequest<T>(
  credentials: GiteaCredentials,
  method: 'GET' | 'POST' | 'PATCH',
  path: string,
  signal: AbortSignal,
  body?: unknown,
): Promise<T> {
  const response = await fetch(`${credentials.api}${path}`, {
    method,
    headers: {
      authorization: `token ${credentials.token}`,
      accept: 'application/json',
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    redirect: 'error',
    signal,
  });
  if (!response.ok) {
    const text = (await response.text().catch(() => '')).slice(0, 200);
    throw new GiteaHttpError(
      response.status,
      retryAfterMs(response.headers.get('retry-after')),
      `Gitea answered ${response.status} to ${method} ${path.split('?')[0]}${text ? `: ${text}` : ''}`,
    );
  }
  return (response.status === 204 ? undefined : await response.json()) as T;
}

export type CallOutcome<T> =
  { ok: true; value: T } | { ok: false; code: string; status: number | null; reason: string };

/** How a failure counts: its operational code and HTTP status. */
export function classify(error: unknown): { code: string; status: number | null; retryAfterMs: number | null } {
  if (!(error instanceof GiteaHttpError)) return { code: 'ERR_FORGE_UNAVAILABLE', status: null, retryAfterMs: null };
  const { status } = error;
  if (status === 429) return { code: 'ERR_FORGE_RATE_LIMIT', status, retryAfterMs: error.retryAfterMs };
  if (status === 401 || status === 403 || status === 404) return { code: 'ERR_FORGE_AUTH', status, retryAfterMs: null };
  if (status >= 500) return { code: 'ERR_FORGE_UNAVAILABLE', status, retryAfterMs: error.retryAfterMs };
  return { code: 'ERR_REPORTER_FAILED', status, retryAfterMs: null };
}

/**
 * A reporter's call: server errors, network failures and rate limits asked again three times (1,
 * 2, 4 s later, or when Retry-After says), within the job's time; 401, 403, 404 and other answers
 * recorded at once. Never throws: the outcome says what happened.
 */
export async function reportCall<T>(
  call: (signal: AbortSignal) => Promise<T>,
  settings: { readonly deadline: number; readonly stop?: AbortSignal },
): Promise<CallOutcome<T>> {
  let last: unknown = null;
  const deadline = AbortSignal.timeout(Math.max(0, settings.deadline - Date.now()));
  const signal = settings.stop ? AbortSignal.any([deadline, settings.stop]) : deadline;
  try {
    const value = await retrying(
      async () => {
        try {
          return await call(signal);
        } catch (error) {
          last = error;
          throw error;
        }
      },
      {
        retries: 3,
        initialDelayMs: 1000,
        signal,
        retryable: (error) => {
          const { code, retryAfterMs: after } = classify(error);
          if (code !== 'ERR_FORGE_UNAVAILABLE' && code !== 'ERR_FORGE_RATE_LIMIT') return false;
          return after === null ? true : { afterMs: after };
        },
      },
    );
    return { ok: true, value };
  } catch (error) {
    const failure = last ?? error;
    const { code, status } = classify(failure);
    return { ok: false, code, status, reason: describeRequestFailure(failure) };
  }
}
