import { CadenceError, type ListedRepository, errorMessage } from '@cadence-detect/plugin-sdk';
import { classifyForgeFailure } from '@cadence-detect/forge-kit';
import { bitbucketRequest, nextPath, type BitbucketCredentials, type BitbucketPage } from './bitbucket-client.js';
import { cloneUrlOf } from './payload.js';

const WORKSPACE = /^[a-z0-9][a-z0-9_-]{0,61}$/i;
/** At most this many pages (10,000 repositories): a listing that never ends is refused, not followed. */
const MAX_PAGES = 100;

interface BitbucketRepository {
  full_name: string;
  is_private?: boolean;
  parent?: unknown;
  links?: unknown;
}

/** A workspace's repositories (`GET /repositories/{workspace}`, 100 a page, following `next` within the API). */
export async function listBitbucketRepositories(
  credentials: BitbucketCredentials | null,
  workspace: string,
  signal: AbortSignal,
): Promise<ListedRepository[]> {
  if (!WORKSPACE.test(workspace))
    throw new CadenceError('ERR_INVALID_SOURCE', {
      message: `Not a Bitbucket workspace: ${JSON.stringify(workspace)}`,
    });
  if (!credentials)
    throw new CadenceError('ERR_FORGE_AUTH', {
      message: 'Listing a Bitbucket workspace needs a token (forges.bitbucket.token, CADENCE_BITBUCKET_TOKEN)',
    });
  const listed: ListedRepository[] = [];
  try {
    let path: string | null = `/repositories/${encodeURIComponent(workspace)}?pagelen=100`;
    for (let page = 0; path !== null; page++) {
      if (page === MAX_PAGES)
        throw new CadenceError('ERR_FORGE_UNAVAILABLE', {
          message: `Bitbucket listed more than ${MAX_PAGES} pages of ${workspace}'s repositories`,
        });
      const batch: BitbucketPage<BitbucketRepository> = await bitbucketRequest(credentials, 'GET', path, signal);
      for (const r of batch.values)
        listed.push({
          repository: r.full_name,
          cloneUrl: cloneUrlOf(r, 'values[]'),
          // Bitbucket Cloud has no archived flag: nothing is left out as archived.
          archived: false,
          fork: r.parent !== undefined && r.parent !== null,
          private: r.is_private === true,
        });
      path = nextPath(credentials, batch.next);
    }
    return listed;
  } catch (error) {
    if (signal.aborted) throw signal.reason;
    if (error instanceof CadenceError) throw error;
    const { code } = classifyForgeFailure(error);
    throw new CadenceError(code === 'ERR_REPORTER_FAILED' ? 'ERR_FORGE_UNAVAILABLE' : code, {
      message: `Bitbucket would not list ${workspace}'s repositories: ${errorMessage(error)}`.slice(0, 300),
    });
  }
}
