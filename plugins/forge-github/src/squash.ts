import { FULL_COMMIT_ID, type ForgeTarget } from '@cadence-detect/plugin-sdk';
import { type SquashFound } from '@cadence-detect/forge-kit';
import { githubClient } from './github-client.js';
import type { GithubCredentials } from './options.js';

/**
 * The merged pull request whose merge commit the pushed commit is (GitHub's pull requests
 * associated with the commit). A passing failure (5xx) is asked again twice, 1 and 4 s later;
 * an answer that will not change or a rate limit is not: within its 10 s the job would rather judge
 * the squash commit as itself at once than wait for a window that may outlast it.
 */
export async function githubSquash(
  credentials: GithubCredentials,
  target: ForgeTarget,
  signal: AbortSignal,
): Promise<SquashFound | null> {
  const client = githubClient(credentials, {
    retries: 2,
    rateLimitsUntil: null,
    signal,
    ...(target.installation_id !== undefined ? { installationId: target.installation_id } : {}),
  });
  if (!client) return null;
  const [owner = '', repo = ''] = target.repository.split('/');
  const { data } = await client.rest.repos.listPullRequestsAssociatedWithCommit({
    owner,
    repo,
    commit_sha: target.sha,
  });
  const squashed = data.find(
    (pr) => pr.merged_at && pr.merge_commit_sha === target.sha && FULL_COMMIT_ID.test(pr.head.sha),
  );
  return squashed
    ? { number: squashed.number, ref: `refs/pull/${squashed.number}/head`, head: squashed.head.sha }
    : null;
}
