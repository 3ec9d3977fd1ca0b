import { forgeRequest, type ForgeApi } from '@cadence-detect/forge-kit';

/**
 * Where Gitea (or Forgejo) is and the token that goes with it: requests go through the SDK's
 * `forgeRequest` (Node's fetch, JSON, no redirect followed), as `Authorization: token …`.
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

function giteaApi(credentials: GiteaCredentials): ForgeApi {
  return { base: credentials.api, authorization: `token ${credentials.token}`, label: 'Gitea' };
}

/** `owner/name` as two path segments, each encoded. */
export function repoPath(repository: string): string {
  return repository
    .split('/')
    .map((part) => encodeURIComponent(part))
    .join('/');
}

export function giteaRequest<T>(
  credentials: GiteaCredentials,
  method: 'GET' | 'POST' | 'PATCH',
  path: string,
  signal: AbortSignal,
  body?: unknown,
): Promise<T> {
  return forgeRequest<T>(giteaApi(credentials), method, path, signal, body);
}
