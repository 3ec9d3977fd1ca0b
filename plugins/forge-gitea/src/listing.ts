import { CadenceError, type ListedRepository, errorMessage } from '@cadence-detect/plugin-sdk';
import { classifyForgeFailure, ForgeHttpError } from '@cadence-detect/forge-kit';
import { giteaRequest, type GiteaCredentials } from './gitea-client.js';

const OWNER = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,39}$/;
const PAGE = 50;
/** At most this many pages (10,000 repositories): a listing that never ends is refused, not followed. */
const MAX_PAGES = 200;

interface GiteaRepository {
  full_name: string;
  clone_url: string;
  archived?: boolean;
  fork?: boolean;
  private?: boolean;
}

/** An organization's repositories (`GET /orgs/:org/repos`, every page), else a user's (`/users/:user/repos`). */
export async function listGiteaRepositories(
  credentials: GiteaCredentials | null,
  owner: string,
  signal: AbortSignal,
): Promise<ListedRepository[]> {
  if (!OWNER.test(owner) || owner.includes('..'))
    throw new CadenceError('ERR_INVALID_SOURCE', {
      message: `Not a Gitea organization or user: ${JSON.stringify(owner)}`,
    });
  if (!credentials)
    throw new CadenceError('ERR_FORGE_AUTH', {
      message: 'Listing a Gitea organization needs forges.gitea.api_url and a token (CADENCE_GITEA_TOKEN)',
    });
  try {
    const listed = await allPages(credentials, `/orgs/${encodeURIComponent(owner)}/repos`, signal).catch(
      (error: unknown) => {
        if (error instanceof ForgeHttpError && error.status === 404)
          return allPages(credentials, `/users/${encodeURIComponent(owner)}/repos`, signal);
        throw error;
      },
    );
    return listed.map((r) => ({
      repository: r.full_name,
      cloneUrl: r.clone_url,
      archived: r.archived === true,
      fork: r.fork === true,
      private: r.private === true,
    }));
  } catch (error) {
    if (signal.aborted) throw signal.reason;
    const { code } = classifyForgeFailure(error);
    throw new CadenceError(code === 'ERR_REPORTER_FAILED' ? 'ERR_FORGE_UNAVAILABLE' : code, {
      message: `Gitea would not list ${owner}'s repositories: ${errorMessage(error)}`.slice(0, 300),
    });
  }
}

async function allPages(credentials: GiteaCredentials, path: string, signal: AbortSignal): Promise<GiteaRepository[]> {
  const all: GiteaRepository[] = [];
  for (let page = 1; page <= MAX_PAGES; page++) {
    const batch = await giteaRequest<GiteaRepository[]>(
      credentials,
      'GET',
      `${path}?limit=${PAGE}&page=${page}`,
      signal,
    );
    all.push(...batch);
    if (batch.length < PAGE) return all;
  }
  throw new CadenceError('ERR_FORGE_UNAVAILABLE', { message: `Gitea listed more than ${MAX_PAGES} pages at ${path}` });
}
