import { readFileSync } from 'node:fs';
import type { CadenceConfig } from '@cadence/config';
import type { ForgeTarget } from '@cadence/plugin-sdk';

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

async function githubSquash(apiUrl: string, auth: GithubAuth, target: ForgeTarget, signal: AbortSignal): Promise<SquashedRequest | null> {
  const { Octokit } = await import('@octokit/rest');
  const [owner, repo] = target.repository.split('/') as [string, string];
  let octokit: InstanceType<typeof Octokit>;
  if ('token' in auth) octokit = new Octokit({ baseUrl: apiUrl.replace(/\/+$/, ''), auth: auth.token, request: { signal } });
  else {
    if (target.installation_id === undefined) return null;
    const { createAppAuth } = await import('@octokit/auth-app');
    octokit = new Octokit({ baseUrl: apiUrl.replace(/\/+$/, ''), authStrategy: createAppAuth, auth: { appId: auth.appId, privateKey: auth.privateKey, installationId: target.installation_id }, request: { signal } });
  }
  const { data } = await octokit.rest.repos.listPullRequestsAssociatedWithCommit({ owner, repo, commit_sha: target.sha });
  const squashed = data.find((pr) => pr.merged_at && pr.merge_commit_sha === target.sha && COMMIT_ID.test(pr.head.sha));
  return squashed ? { number: squashed.number, ref: `refs/pull/${squashed.number}/head`, head: squashed.head.sha } : null;
}

async function gitlabSquash(apiUrl: string, token: string, target: ForgeTarget, signal: AbortSignal): Promise<SquashedRequest | null> {
  const { Gitlab } = await import('@gitbeaker/rest');
  const api = new Gitlab({ host: apiUrl.replace(/\/+$/, '').replace(/\/api\/v4$/, ''), token, queryTimeout: 10_000 });
  signal.throwIfAborted();
  const requests = (await api.Commits.allMergeRequests(target.project_id!, target.sha)) as { iid: number; squash_commit_sha?: string | null; sha?: string; state?: string }[];
  const squashed = requests.find((mr) => mr.state === 'merged' && mr.squash_commit_sha === target.sha && typeof mr.sha === 'string' && COMMIT_ID.test(mr.sha));
  return squashed ? { number: squashed.iid, ref: `refs/merge-requests/${squashed.iid}/head`, head: squashed.sha! } : null;
}
