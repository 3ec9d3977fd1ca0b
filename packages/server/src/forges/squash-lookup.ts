import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import type { CadenceConfig } from '@cadence-detect/config';
import type { ForgeTarget } from '@cadence-detect/plugin-sdk';

/** A request whose squash commit a push carried: where its original commits still are. */
export interface SquashedRequest {
  readonly number: number;
  /** refs/pull/N/head or refs/merge-requests/N/head in the base repository. */
  readonly ref: string;
  /** The request's head commit (full hash). */
  readonly head: string;
}

/** Asks the forge which request, if any, a pushed commit squashes (null: none, or the forge cannot say). */
export type SquashLookup = (target: ForgeTarget, signal: AbortSignal) => Promise<SquashedRequest | null>;

const COMMIT_ID = /^[0-9a-f]{40}$/;

/**
 * The forge API's answer, never the commit subject's `(#N)` (anyone can write one): GitHub's
 * pull requests associated with the commit whose merge commit it is, GitLab's merge requests
 * whose squash commit it is. The forge clients load only when a forge is configured.
 */
export function squashLookupFor(config: CadenceConfig): SquashLookup | null {
  const github = config.forges.github;
  const gitlab = config.forges.gitlab;
  const githubAuth = githubCredentials(config);
  if (!githubAuth && !gitlab.token) return null;
  return async (target, signal) => {
    if (target.forge === 'github' && githubAuth) return githubSquash(github.api_url, githubAuth, target, signal);
    if (target.forge === 'gitlab' && gitlab.token && target.project_id !== undefined) return gitlabSquash(gitlab.api_url, gitlab.token, target, signal);
    return null;
  };
}

type GithubAuth = { token: string } | { appId: number; privateKey: string };

function githubCredentials(config: CadenceConfig): GithubAuth | null {
  const github = config.forges.github;
  if (github.token) return { token: github.token };
  if (github.app_id === null) return null;
  const privateKey = github.private_key ?? (github.private_key_path ? readKey(github.private_key_path) : null);
  return privateKey ? { appId: github.app_id, privateKey } : null;
}

/** The host already read the key once at start-up (and refused an unreadable one). */
function readKey(file: string): string | null {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return null;
  }
}

/**
 * A forge's passing failure (a 5xx) is asked again, twice, 1 and 4 s later (octokit's retry
 * plugin), within the 10 s the job gives the lookup; an answer that will not change (401, 403, 404,
 * 422) or a rate limit (429) is not: the job then judges the squash commit as itself at once rather
 * than wait for a window that may outlast it.
 */
const GITHUB_RETRY = { retries: 2, doNotRetry: [400, 401, 403, 404, 410, 422, 429, 451] };

async function githubSquash(apiUrl: string, auth: GithubAuth, target: ForgeTarget, signal: AbortSignal): Promise<SquashedRequest | null> {
  const { Octokit: Base } = await import('@octokit/rest');
  const { retry } = await import('@octokit/plugin-retry');
  const Octokit = Base.plugin(retry);
  const [owner, repo] = target.repository.split('/') as [string, string];
  let octokit: InstanceType<typeof Octokit>;
  if ('token' in auth) octokit = new Octokit({ baseUrl: apiUrl.replace(/\/+$/, ''), auth: auth.token, request: { signal }, retry: GITHUB_RETRY });
  else {
    if (target.installation_id === undefined) return null;
    const { createAppAuth } = await import('@octokit/auth-app');
    octokit = new Octokit({ baseUrl: apiUrl.replace(/\/+$/, ''), authStrategy: createAppAuth, auth: { appId: auth.appId, privateKey: auth.privateKey, installationId: target.installation_id }, request: { signal }, retry: GITHUB_RETRY });
  }
  const { data } = await octokit.rest.repos.listPullRequestsAssociatedWithCommit({ owner, repo, commit_sha: target.sha });
  const squashed = data.find((pr) => pr.merged_at && pr.merge_commit_sha === target.sha && COMMIT_ID.test(pr.head.sha));
  return squashed ? { number: squashed.number, ref: `refs/pull/${squashed.number}/head`, head: squashed.head.sha } : null;
}

async function gitlabSquash(apiUrl: string, token: string, target: ForgeTarget, signal: AbortSignal): Promise<SquashedRequest | null> {
  const { Gitlab } = await import('@gitbeaker/rest');
  const api = new Gitlab({ host: apiUrl.replace(/\/+$/, '').replace(/\/api\/v4$/, ''), token, queryTimeout: 10_000 });
  signal.throwIfAborted();
  const requests = (await retryServerErrors(() => api.Commits.allMergeRequests(target.project_id!, target.sha), signal)) as { iid: number; squash_commit_sha?: string | null; sha?: string; state?: string }[];
  const squashed = requests.find((mr) => mr.state === 'merged' && mr.squash_commit_sha === target.sha && typeof mr.sha === 'string' && COMMIT_ID.test(mr.sha));
  return squashed ? { number: squashed.iid, ref: `refs/merge-requests/${squashed.iid}/head`, head: squashed.sha! } : null;
}

/** GitLab's passing failures (5xx) asked again, twice, 1 and 4 s later, as GitHub's are; anything else at once. */
async function retryServerErrors<T>(ask: () => Promise<T>, signal: AbortSignal): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await ask();
    } catch (error) {
      const status = (error as { cause?: { response?: { status?: number } } }).cause?.response?.status;
      if (attempt > 2 || status === undefined || status < 500) throw error;
      await sleep(attempt * attempt * 1000, undefined, { signal });
    }
  }
}
