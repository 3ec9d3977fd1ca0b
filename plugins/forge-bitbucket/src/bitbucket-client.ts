import { forgeRequest, type ForgeApi } from '@cadence-detect/forge-kit';

/**
 * Where Bitbucket Cloud's API is and how a request proves itself: an access token as a bearer
 * token, or an API token with its account's e-mail as basic credentials. Requests go through the
 * SDK's `forgeRequest` (Node's fetch, JSON, no redirect followed).
 */
export interface BitbucketCredentials {
  /** `https://api.bitbucket.org/2.0`, without a trailing slash. */
  readonly api: string;
  readonly token: string;
  /** Set for an API token; null for an access token. */
  readonly email: string | null;
}

/** The one place that decides whether Bitbucket is configured: a token. */
export function bitbucketCredentials(options: {
  readonly token: string | null;
  readonly email: string | null;
  readonly api_url: string;
}): BitbucketCredentials | null {
  if (!options.token) return null;
  return { api: options.api_url.replace(/\/+$/, ''), token: options.token, email: options.email };
}

export function bitbucketApi(credentials: BitbucketCredentials): ForgeApi {
  const authorization = credentials.email
    ? `Basic ${Buffer.from(`${credentials.email}:${credentials.token}`).toString('base64')}`
    : `Bearer ${credentials.token}`;
  return { base: credentials.api, authorization, label: 'Bitbucket' };
}

/**
 * The header git sends with clones of Bitbucket's hosts: basic credentials under the static user
 * name Bitbucket gives each kind of token (`x-token-auth` for access tokens,
 * `x-bitbucket-api-token-auth` for API tokens).
 */
export function bitbucketGitAuthorization(credentials: BitbucketCredentials): string {
  const user = credentials.email ? 'x-bitbucket-api-token-auth' : 'x-token-auth';
  return `Authorization: Basic ${Buffer.from(`${user}:${credentials.token}`).toString('base64')}`;
}

/** `workspace/slug` as two path segments, each encoded. */
export function repoPath(repository: string): string {
  return repository
    .split('/')
    .map((part) => encodeURIComponent(part))
    .join('/');
}

export function bitbucketRequest<T>(
  credentials: BitbucketCredentials,
  method: 'GET' | 'POST' | 'PUT',
  path: string,
  signal: AbortSignal,
  body?: unknown,
): Promise<T> {
  return forgeRequest<T>(bitbucketApi(credentials), method, path, signal, body);
}

/** A page of Bitbucket's paged collections: `values`, and `next` (a full URL) while more remain. */
export interface BitbucketPage<T> {
  readonly values: readonly T[];
  readonly next?: string;
}

/**
 * The path of a page's `next` link, only when it points back at the same API: a `next` elsewhere
 * would carry the token there, so it ends the walk with an error instead.
 */
export function nextPath(credentials: BitbucketCredentials, next: string | undefined): string | null {
  if (!next) return null;
  if (!next.startsWith(`${credentials.api}/`))
    throw new Error(`Bitbucket's next page is not under ${credentials.api}: not followed`);
  return next.slice(credentials.api.length);
}
