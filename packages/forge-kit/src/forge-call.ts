import { redactSecrets } from '@cadence-detect/errors';
import type { Forge, JobInfo, ReportOutcome, PluginLogger } from '@cadence-detect/plugin-sdk';
import { describeRequestFailure } from './request-failure.js';
import { retrying, retryAfterMs } from './retry.js';

/**
 * A forge's answer that is not 2xx: its status and how long the forge asked to wait.
 * @since 1.13
 */
export class ForgeHttpError extends Error {
  constructor(
    readonly status: number,
    readonly retryAfterMs: number | null,
    message: string,
  ) {
    super(message);
    this.name = 'ForgeHttpError';
  }
}

/**
 * Where a forge's REST API is and what goes with each request to it.
 * @since 1.13
 */
export interface ForgeApi {
  /** The API's base, without a trailing slash (`https://codeberg.org/api/v1`). */
  readonly base: string;
  /** The `Authorization` header's value (`token …`, `Bearer …`). */
  readonly authorization: string;
  /** The forge's name in error messages (`Gitea answered 404 to …`). */
  readonly label: string;
}

/**
 * One JSON request to a forge's REST API over Node's fetch, for forges whose client library Cadence
 * does not take: JSON both ways, no redirect followed (the token goes to the configured API only),
 * a non-2xx answer thrown as a `ForgeHttpError` carrying the start of its body.
 * @since 1.13
 */
export async function forgeRequest<T>(
  api: ForgeApi,
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  path: string,
  signal: AbortSignal,
  body?: unknown,
): Promise<T> {
  const response = await fetch(`${api.base}${path}`, {
    method,
    headers: {
      authorization: api.authorization,
      accept: 'application/json',
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    redirect: 'error',
    signal,
  });
  if (!response.ok) {
    // A body can echo the request's headers (a proxy in front of the forge does): the token is
    // redacted from the whole body before it is cut, and the cut text goes into job records.
    const text = redactSecrets(await response.text().catch(() => ''), authorizationSecrets(api.authorization)).slice(
      0,
      200,
    );
    throw new ForgeHttpError(
      response.status,
      retryAfterMs(response.headers.get('retry-after')),
      `${api.label} answered ${response.status} to ${method} ${path.split('?')[0]}${text ? `: ${text}` : ''}`,
    );
  }
  const text = response.status === 204 ? '' : await response.text();
  return (text === '' ? undefined : JSON.parse(text)) as T;
}

/** The header's value and its credential alone (`token abc…` and `abc…`; Basic's base64 the same). */
function authorizationSecrets(authorization: string): string[] {
  const space = authorization.indexOf(' ');
  return space < 0 ? [authorization] : [authorization, authorization.slice(space + 1).trim()];
}

/**
 * How a failed forge call counts: its operational code, its HTTP status, how long the forge asked to wait.
 * @since 1.13
 */
export interface ForgeFailure {
  readonly code: 'ERR_FORGE_RATE_LIMIT' | 'ERR_FORGE_AUTH' | 'ERR_FORGE_UNAVAILABLE' | 'ERR_REPORTER_FAILED';
  readonly status: number | null;
  readonly retryAfterMs: number | null;
}

/**
 * The one reading of a forge's answer: 429 a rate limit; 401, 403 and 404 the token's business
 * (`ERR_FORGE_AUTH`); 5xx and no answer at all the forge being away; anything else the reporter's
 * own failure. Reads a `ForgeHttpError`, or any error with a numeric `status`.
 * @since 1.13
 */
export function classifyForgeFailure(error: unknown): ForgeFailure {
  const e = error as { status?: unknown; retryAfterMs?: unknown } | null;
  const status = typeof e?.status === 'number' ? e.status : null;
  const retryAfter = typeof e?.retryAfterMs === 'number' ? e.retryAfterMs : null;
  if (status === 429) return { code: 'ERR_FORGE_RATE_LIMIT', status, retryAfterMs: retryAfter };
  if (status === 401 || status === 403 || status === 404) return { code: 'ERR_FORGE_AUTH', status, retryAfterMs: null };
  if (status === null || status >= 500) return { code: 'ERR_FORGE_UNAVAILABLE', status, retryAfterMs: retryAfter };
  return { code: 'ERR_REPORTER_FAILED', status, retryAfterMs: null };
}

/**
 * What a reporter's call came to: its value, or why it failed.
 * @since 1.13
 */
export type ForgeCallOutcome<T> =
  { ok: true; value: T } | { ok: false; code: string; status: number | null; reason: string };

/**
 * A reporter's call to its forge: server errors, network failures and rate limits asked again three
 * times (1, 2, 4 s later, or when Retry-After says), within the job's time; 401, 403, 404 and other
 * answers recorded at once. `stop` ends the retries (the final status went ahead of a pending one
 * still being tried). Never throws: the outcome says what happened.
 * @since 1.13
 */
export async function forgeReportCall<T>(
  call: (signal: AbortSignal) => Promise<T>,
  settings: {
    readonly deadline: number;
    readonly stop?: AbortSignal;
    /** The forge client's own reading of its errors (default `classifyForgeFailure`). */
    readonly classify?: (
      error: unknown,
    ) => ForgeFailure | { code: string; status: number | null; retryAfterMs: number | null };
  },
): Promise<ForgeCallOutcome<T>> {
  const classify = settings.classify ?? classifyForgeFailure;
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
    const reason = describeRequestFailure(failure);
    const stopped = settings.stop?.aborted === true && last !== null;
    return {
      ok: false,
      code,
      status,
      reason: stopped ? `${reason}; stopped retrying when the final status went ahead` : reason,
    };
  }
}

/**
 * The record of one report (a status, a comment) as a job keeps it; a failure is also logged as a
 * warning with its code, reason and HTTP status (never a token: none is in the outcome).
 * @since 1.13
 */
export function forgeReportOutcome(
  report: { readonly reporter: string; readonly forge: Forge; readonly logger: PluginLogger },
  kind: string,
  job: JobInfo,
  state: string,
  result: ForgeCallOutcome<unknown>,
): ReportOutcome {
  if (!result.ok)
    report.logger.warn(`${report.reporter}: a report failed`, {
      job_id: job.id,
      kind,
      state,
      error_code: result.code,
      reason: result.reason,
      status: result.status,
    });
  return {
    reporter: report.reporter,
    forge: report.forge,
    kind,
    target: reportTarget(job),
    state,
    ok: result.ok,
    error_code: result.ok ? null : result.code,
    ...(result.ok ? {} : { reason: result.reason }),
    at: new Date().toISOString(),
  };
}

/**
 * The pending statuses a reporter posted when its jobs began. The final status waits for its job's
 * pending one (so that it never lands first), but at most `graceMs`: then the pending one retries
 * no more and the verdict goes ahead. A job that never ends is forgotten a minute past its deadline.
 * @since 1.13
 */
export class PendingStatuses {
  private readonly started = new Map<string, { done: Promise<void>; stop: AbortController }>();

  constructor(private readonly graceMs = 2000) {}

  /** Posts the pending status; `stop` aborts when the final status stops waiting for it. */
  begin(job: JobInfo, post: (stop: AbortSignal) => Promise<void>): void {
    const stop = new AbortController();
    this.started.set(job.id, { done: post(stop.signal), stop });
    setTimeout(() => this.started.delete(job.id), Math.max(0, job.deadline - Date.now()) + 60_000).unref();
  }

  /** Waits for the job's pending status, at most `graceMs`. */
  async settle(job: JobInfo): Promise<void> {
    const started = this.started.get(job.id);
    this.started.delete(job.id);
    if (!started) return;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'late'>((resolve) => {
      timer = setTimeout(() => resolve('late'), this.graceMs);
    });
    if ((await Promise.race([started.done, late])) === 'late') started.stop.abort();
    clearTimeout(timer);
  }
}

/** What an outcome record names as reported on: `owner/name@<sha>` (a job that names no forge target: the job). */
export function reportTarget(job: JobInfo): string {
  return job.forge ? `${job.forge.repository}@${job.forge.sha}` : `job ${job.id}`;
}
