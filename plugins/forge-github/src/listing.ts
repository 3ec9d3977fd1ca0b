import { CadenceError, type ListedRepository, errorMessage } from '@cadence-detect/plugin-sdk';
import { forgeErrorCode } from './forge-error.js';
import { githubClient } from './github-client.js';
import type { GithubCredentials } from './options.js';

const OWNER = /^[A-Za-z0-9][A-Za-z0-9_-]{0,38}$/;

/**
 * An organization's repositories (`GET /orgs/{org}/repos`, every page), or a user's when no
 * organization has the name. Server errors are asked again twice; a rate limit is not waited out.
 */
export async function listGithubRepositories(
  credentials: GithubCredentials | null,
  owner: string,
  signal: AbortSignal,
): Promise<ListedRepository[]> {
  if (!OWNER.test(owner))
    throw new CadenceError('ERR_INVALID_SOURCE', { message: `Not a GitHub account name: ${JSON.stringify(owner)}` });
  const client = credentials ? githubClient(credentials, { retries: 2, rateLimitsUntil: null, signal }) : null;
  if (!client)
    throw new CadenceError('ERR_FORGE_AUTH', {
      message: 'Listing a GitHub organization needs a token: set forges.github.token (CADENCE_GITHUB_TOKEN)',
    });
  try {
    let repositories;
    try {
      repositories = await client.paginate(client.rest.repos.listForOrg, { org: owner, type: 'all', per_page: 100 });
    } catch (error) {
      if ((error as { status?: number }).status !== 404) throw error;
      repositories = await client.paginate(client.rest.repos.listForUser, {
        username: owner,
        type: 'owner',
        per_page: 100,
      });
    }
    return repositories.map((r) => ({
      repository: r.full_name,
      cloneUrl: r.clone_url ?? `${r.html_url}.git`,
      archived: r.archived === true,
      fork: r.fork,
      private: r.private,
    }));
  } catch (error) {
    if (signal.aborted) throw signal.reason;
    const code = forgeErrorCode(error);
    throw new CadenceError(code === 'ERR_REPORTER_FAILED' ? 'ERR_FORGE_UNAVAILABLE' : (code as 'ERR_FORGE_AUTH'), {
      message: `GitHub would not list ${owner}'s repositories: ${errorMessage(error)}`.slice(0, 300),
    });
  }
}
