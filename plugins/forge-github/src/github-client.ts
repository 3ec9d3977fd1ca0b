import { createAppAuth } from '@octokit/auth-app';
import { retry } from '@octokit/plugin-retry';
import { throttling } from '@octokit/plugin-throttling';
import { Octokit } from '@octokit/rest';
import type { GithubCredentials } from './options.js';

/**
 * The one GitHub client of the plugin, for reporting and look-ups alike: Octokit with the two
 * well-kept plugins that make it a good citizen (retries on 5xx, rate limits honoured). Loaded on
 * first use (github-lazy.ts): commands that never talk to GitHub do not load Octokit.
 */
const CadenceOctokit: typeof Octokit = Octokit.plugin(retry, throttling);
export type GithubClient = Octokit;

const QUIET = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };

/**
 * What is asked again: a forge's passing failure (5xx, a dropped connection), with octokit's back-off
 * (1, 4, 9 s); never an answer that will not change (401, 403, 404, 422...). Rate limits (403 with a
 * rate-limit header, 429) are the throttling plugin's: it reads Retry-After and the reset headers and
 * asks `rateLimitsUntil` whether the wait ends in time.
 */
export const GITHUB_DO_NOT_RETRY = [400, 401, 403, 404, 410, 422, 429, 451];
/** At most this many waits for a rate limit per request. */
const MAX_RATE_LIMIT_RETRIES = 3;

export interface GithubClientSettings {
  /** Server errors asked again this many times: reporting 3 (within the job's time), look-ups 2 (within their 10 s). */
  readonly retries: number;
  /** A rate limit is waited out only when its reset comes before this (epoch ms); null: never (a look-up would rather judge the push now). */
  readonly rateLimitsUntil: number | null;
  /** Every request of the client ends with it (the job's time, a look-up's 10 s). */
  readonly signal: AbortSignal;
  /** An App's installation to act as; without one the token is used. */
  readonly installationId?: number;
}

/** A client as the App's installation when one is given and an App is configured, else with the token; null when neither can be used. */
export function githubClient(credentials: GithubCredentials, settings: GithubClientSettings): GithubClient | null {
  const asApp = credentials.app !== null && settings.installationId !== undefined;
  const { token } = credentials;
  if (!asApp && !token) return null;
  const until = settings.rateLimitsUntil;
  const withinTime = (retryAfterSeconds: number, _options: unknown, _octokit: unknown, retryCount: number): boolean =>
    until !== null && retryCount < MAX_RATE_LIMIT_RETRIES && Date.now() + retryAfterSeconds * 1000 < until;
  const common = {
    baseUrl: credentials.apiUrl,
    userAgent: 'cadence-report-github',
    // Octokit's own log lines can carry request details; the plugin logs its outcomes itself.
    log: QUIET,
    throttle: { onRateLimit: withinTime, onSecondaryRateLimit: withinTime },
    retry: { retries: settings.retries, doNotRetry: GITHUB_DO_NOT_RETRY },
    request: { signal: settings.signal },
  };
  if (asApp) {
    return new CadenceOctokit({
      ...common,
      authStrategy: createAppAuth,
      auth: {
        appId: credentials.app.appId,
        privateKey: credentials.app.privateKey,
        installationId: settings.installationId,
      },
    });
  }
  return new CadenceOctokit({ ...common, auth: token ?? undefined });
}
