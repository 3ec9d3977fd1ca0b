import { FULL_COMMIT_ID, type ForgeTarget } from '@cadence-detect/plugin-sdk';
import { type SquashFound } from '@cadence-detect/forge-kit';
import { gitlabClient, lookupCall } from './gitlab-client.js';
import type { GitlabCredentials } from './options.js';

/** The merged merge request whose squash commit the pushed commit is (GitLab's merge requests of the commit). */
export async function gitlabSquash(
  credentials: GitlabCredentials,
  target: ForgeTarget,
  signal: AbortSignal,
): Promise<SquashFound | null> {
  const projectId = target.project_id;
  if (projectId === undefined) return null;
  const api = gitlabClient(credentials, { timeoutMs: 10_000 });
  signal.throwIfAborted();
  const requests = (await lookupCall(() => api.Commits.allMergeRequests(projectId, target.sha), signal)) as {
    iid: number;
    squash_commit_sha?: string | null;
    sha?: string;
    state?: string;
  }[];
  const squashed = requests.find(
    (mr) =>
      mr.state === 'merged' &&
      mr.squash_commit_sha === target.sha &&
      typeof mr.sha === 'string' &&
      FULL_COMMIT_ID.test(mr.sha),
  );
  return squashed?.sha
    ? { number: squashed.iid, ref: `refs/merge-requests/${squashed.iid}/head`, head: squashed.sha }
    : null;
}
