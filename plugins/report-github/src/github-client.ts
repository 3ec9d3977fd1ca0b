import { createAppAuth } from '@octokit/auth-app';
import { retry } from '@octokit/plugin-retry';
import { throttling } from '@octokit/plugin-throttling';
import { Octokit } from '@octokit/rest';
import type { JobInfo } from '@cadence-detect/plugin-sdk';
import type { GithubReportOptions } from './options.js';

/** Octokit with the two well-kept plugins that make it a good citizen: retries on 5xx, rate limits honoured. */
const ReportingOctokit: typeof Octokit = Octokit.plugin(retry, throttling);
export type GithubClient = Octokit;

const QUIET = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };
const MAX_RATE_LIMIT_RETRIES = 3;

/**
 * A client for one job: bounded by the job's time (every request carries a signal that ends with
 * it, and a rate limit is waited out only when its reset comes before the job's end), authenticated
 * as the App's installation when the push came from one and an App is configured, else with the token.
 */
export function githubClient(options: GithubReportOptions, job: JobInfo): GithubClient | null {
  const app = options.app_id !== null && options.private_key !== null && job.forge?.installation_id !== undefined;
  if (!app && !options.token) return null;
  const withinTime = (retryAfterSeconds: number, _options: unknown, _octokit: unknown, retryCount: number): boolean =>
    retryCount < MAX_RATE_LIMIT_RETRIES && Date.now() + retryAfterSeconds * 1000 < job.deadline;
  const common = {
    baseUrl: options.api_url.replace(/\/+$/, ''),
    userAgent: 'cadence-report-github',
    // Octokit's own log lines can carry request details; the reporter logs its outcomes itself.
    log: QUIET,
    throttle: { onRateLimit: withinTime, onSecondaryRateLimit: withinTime },
    // Server errors are retried here with back-off; rate limits (403/429) only by the throttling
    // plugin, which reads Retry-After and the reset headers and asks withinTime.
    retry: { retries: 3, doNotRetry: [400, 401, 403, 404, 410, 422, 429, 451] },
    request: { signal: AbortSignal.timeout(Math.max(1000, job.deadline - Date.now())) },
  };
  if (app) {
    return new ReportingOctokit({
      ...common,
      authStrategy: createAppAuth,
      auth: { appId: options.app_id!, privateKey: options.private_key!, installationId: job.forge!.installation_id! },
    });
  }
  return new ReportingOctokit({ ...common, auth: options.token! });
}

/** Whether this job reports with check runs (an App installation) rather than commit statuses. */
export function usesChecks(options: GithubReportOptions, job: JobInfo): boolean {
  return options.app_id !== null && options.private_key !== null && job.forge?.installation_id !== undefined;
}

/** The operational code of a failed forge call: credentials, rate limit, or the forge itself. */
export function forgeErrorCode(error: unknown): string {
  const e = error as { status?: number; message?: string; response?: { headers?: Record<string, string | undefined> } };
  const status = typeof e?.status === 'number' ? e.status : 0;
  const headers = e?.response?.headers ?? {};
  if (status === 429 || (status === 403 && (headers['x-ratelimit-remaining'] === '0' || /rate limit/i.test(e.message ?? '')))) return 'ERR_FORGE_RATE_LIMIT';
  if (status === 401 || status === 403 || status === 404) return 'ERR_FORGE_AUTH';
  if (status >= 500 || status === 0) return 'ERR_FORGE_UNAVAILABLE';
  return 'ERR_REPORTER_FAILED';
}
