import { CadenceError } from '@cadence-detect/errors';
import type { NetworkPolicy } from '@cadence-detect/network-guard';
import { isFullCommitId, type PluginLogger } from '@cadence-detect/plugin-sdk';
import { branchNotFoundMessage } from './branch-hint.js';
import { runGitCommand } from './git-process.js';
import { locateRepository } from './local-repository.js';
import { openMirrored } from './mirror-clone.js';
import type { MirrorOptions } from './mirrors.js';
import type { RepositoryLocator } from './repository-url.js';
import { cloneRemote } from './temporary-clone.js';

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
   * a shallow request clones as before). Null or absent: a fresh clone per job.
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

/** The refs a job may fetch its head by: a request ref, or a branch (Bitbucket's source branch; checked as a branch name). */
function isFetchableRef(ref: string): boolean {
  if (REQUEST_REF.test(ref)) return true;
  if (!ref.startsWith('refs/heads/')) return false;
  try {
    checkBranchName(ref.slice('refs/heads/'.length));
    return true;
  } catch {
    return false;
  }
}

/** A head named by its first 12 or more characters, which only a fetched ref can resolve. */
const COMMIT_PREFIX = /^[0-9a-fA-F]{12,63}$/;

/** Opens a repository for reading: clones a remote into a temporary folder, or reads a local one in place. */
export async function openRepository(locator: RepositoryLocator, options: OpenOptions): Promise<ClonedRepository> {
  if (options.branch !== undefined) checkBranchName(options.branch);
  const prefix =
    options.fetchCommit !== undefined &&
    options.fetchRef !== undefined &&
    !isFullCommitId(options.fetchCommit, { anyCase: true }) &&
    COMMIT_PREFIX.test(options.fetchCommit);
  if (options.fetchCommit !== undefined && !prefix && !isFullCommitId(options.fetchCommit, { anyCase: true })) {
    throw new CadenceError('ERR_INVALID_SOURCE', {
      message: `Not a commit id: ${JSON.stringify(options.fetchCommit)}`,
    });
  }
  for (const ref of options.optionalRefs ?? []) {
    if (!REQUEST_REF.test(ref))
      throw new CadenceError('ERR_INVALID_SOURCE', {
        message: `Not a pull or merge request ref: ${JSON.stringify(ref.slice(0, 100))}`,
        details: { field: 'ref', reason: 'not a request ref' },
      });
  }
  if (options.fetchRef !== undefined && !isFetchableRef(options.fetchRef)) {
    throw new CadenceError('ERR_INVALID_SOURCE', {
      message: `Not a pull or merge request ref: ${JSON.stringify(options.fetchRef.slice(0, 100))}`,
      details: { field: 'ref', reason: 'not a request ref' },
    });
  }
  const clone =
    locator.kind === 'local'
      ? await openLocal(locator.path, options)
      : options.mirrors && !(options.depth && options.depth > 0)
        ? await openMirrored(locator, options, options.mirrors)
        : await cloneRemote(locator, options);
  if (!prefix) return clone;
  try {
    return { ...clone, resolvedCommit: await resolvePrefix(clone.dir, options.fetchCommit!, options.signal) };
  } catch (error) {
    await clone.dispose();
    throw error;
  }
}

/** The one commit a prefix names in the clone (hex only, so git cannot read it as an option); ambiguous or absent is refused. */
async function resolvePrefix(dir: string, prefix: string, signal?: AbortSignal): Promise<string> {
  const found = await runGitCommand(
    dir,
    ['rev-parse', '--verify', '--quiet', '--end-of-options', `${prefix.toLowerCase()}^{commit}`],
    signal,
  );
  const full = found.stdout.trim();
  if (found.code !== 0 || !isFullCommitId(full))
    throw new CadenceError('ERR_NO_COMMITS_FOUND', {
      message: `The request's head ${prefix} names no single commit of the fetched branch (absent, or ambiguous)`,
    });
  return full;
}

/** Refuses a branch git could read as an option or a revision expression (ERR_INVALID_SOURCE, field `branch`). */
export function checkBranchName(branch: string): void {
  // eslint-disable-next-line no-control-regex
  if (!branch || branch.startsWith('-') || /[\s\x00-\x1f\x7f~^:?*[\\]|\.\.|@\{/.test(branch) || branch.length > 255) {
    throw new CadenceError('ERR_INVALID_SOURCE', {
      message: `Not a valid branch name: ${JSON.stringify(branch.slice(0, 100))}`,
      details: { field: 'branch', reason: 'not a valid branch name' },
    });
  }
}

async function openLocal(dir: string, options: OpenOptions): Promise<ClonedRepository> {
  await locateRepository(dir, { allowBare: true, signal: options.signal });
  const rev = options.branch ?? 'HEAD';
  const head = await runGitCommand(
    dir,
    ['rev-parse', '--verify', '--quiet', '--end-of-options', `${rev}^{commit}`],
    options.signal,
  );
  if (head.code !== 0) {
    throw options.branch
      ? new CadenceError('ERR_BRANCH_NOT_FOUND', {
          message: await branchNotFoundMessage(dir, options.branch, options.signal),
        })
      : new CadenceError('ERR_NO_COMMITS_FOUND', { message: `The repository at ${dir} has no commits` });
  }
  const branch = options.branch ?? (await currentBranch(dir, options.signal));
  const shallow = await runGitCommand(dir, ['rev-parse', '--is-shallow-repository'], options.signal);
  return {
    dir,
    headCommit: head.stdout.trim(),
    branch,
    shallow: shallow.stdout.trim() === 'true',
    dispose: async () => undefined,
  };
}

export async function currentBranch(dir: string, signal?: AbortSignal): Promise<string | null> {
  const result = await runGitCommand(dir, ['symbolic-ref', '--short', '-q', 'HEAD'], signal);
  return result.code === 0 ? result.stdout.trim() || null : null;
}
