import { CadenceError } from '@cadence-detect/errors';
import type { NetworkPolicy } from '@cadence-detect/network-guard';
import type { PluginLogger } from '@cadence-detect/plugin-sdk';
import { runGitCommand } from './git-process.js';
import type { MirrorOptions } from './mirrors.js';

// What opening a repository takes and gives, and the checks every way of opening shares: below
// clone.ts and the two ways it opens a remote (temporary-clone.ts, mirror-clone.ts), which import
// these and never clone.ts.

export interface OpenOptions {
  readonly branch?: string;
  /** 0: full history; n > 0: a shallow clone of the last n commits (GIT_DEPTH). */
  readonly depth?: number;
  readonly timeoutMs: number;
  readonly maxSizeBytes: number;
  readonly signal?: AbortSignal;
  /** null: no network guard (the CLI). */
  readonly policy: NetworkPolicy | null;
  readonly logger?: PluginLogger;
  readonly onProgress?: (message: string) => void;
  /**
   * A commit the analysis needs (a push's `after`): fetched when the clone lacks it. A full id; with
   * `fetchRef`, also a prefix of at least 12 characters (Bitbucket Cloud's pull-request payloads
   * name the head by 12), resolved once the ref is fetched (`resolvedCommit`).
   */
  readonly fetchCommit?: string;
  /**
   * Where that commit lives when no branch holds it: a pull request's `refs/pull/N/head`, a
   * merge request's `refs/merge-requests/N/head` (so a fork's commits come without the fork's URL),
   * or `refs/heads/<branch>` (a Bitbucket request's source branch, which has no request ref).
   */
  readonly fetchRef?: string;
  /** Request refs fetched too if the remote still has them (a squashed request's original commits); a missing one is no error. */
  readonly optionalRefs?: readonly string[];
  /**
   * A whole history's clone: fetch the head refs of the newest this many requests its squash
   * commits name (`(#N)`), where the remote has them (request-head-fetch.ts). Absent or 0: none.
   */
  readonly requestHeads?: number;
  /**
   * Keep a bare mirror per repository and fetch into it instead of cloning (a full history only:
   * a shallow request makes a fresh clone). Null or absent: a fresh clone per job.
   */
  readonly mirrors?: MirrorOptions | null;
  /** A header git sends to URLs under `urlPrefix` (a forge token for a private clone: `cadence scan`). */
  readonly httpAuthorization?: { readonly urlPrefix: string; readonly header: string };
}

export interface ClonedRepository {
  /** Where git commands run: the bare clone, or the local repository. */
  readonly dir: string;
  readonly headCommit: string;
  readonly branch: string | null;
  readonly shallow: boolean;
  /** A mirror kept between jobs (its history can be cached: see HistoryCache). */
  readonly mirrored?: boolean;
  /** Which of `optionalRefs` were fetched. */
  readonly fetchedRefs?: readonly string[];
  /** `fetchCommit`'s full id, when it was given as a prefix. */
  readonly resolvedCommit?: string;
  /** Removes the clone (nothing for a local repository). Safe to call twice. */
  dispose(): Promise<void>;
}

/** The refs a request's original commits may be kept under: a request's head on GitHub, GitLab or Gitea. */
export const REQUEST_REF = /^refs\/(?:pull\/[1-9]\d{0,9}\/head|merge-requests\/[1-9]\d{0,9}\/head)$/;

/** Refuses a branch git could read as an option or a revision expression (ERR_INVALID_SOURCE, field `branch`). */
export function checkBranchName(branch: string): void {
  // eslint-disable-next-line no-control-regex -- controls in a branch name are what this refuses
  if (!branch || branch.startsWith('-') || /[\s\x00-\x1f\x7f~^:?*[\\]|\.\.|@\{/.test(branch) || branch.length > 255) {
    throw new CadenceError('ERR_INVALID_SOURCE', {
      message: `Not a valid branch name: ${JSON.stringify(branch.slice(0, 100))}`,
      details: { field: 'branch', reason: 'not a valid branch name' },
    });
  }
}

export async function currentBranch(dir: string, signal?: AbortSignal): Promise<string | null> {
  const result = await runGitCommand(dir, ['symbolic-ref', '--short', '-q', 'HEAD'], signal);
  return result.code === 0 ? result.stdout.trim() || null : null;
}
