import { CadenceError } from '@cadence-detect/errors';
import type { NetworkPolicy } from '@cadence-detect/network-guard';
import { isFullCommitId, type PluginLogger } from '@cadence-detect/plugin-sdk';
import { branchNotFoundMessage } from './branch-hint.js';
import { runGitCommand } from './git-process.js';
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
  /** A commit the analysis needs (a push's `after`): fetched when the clone lacks it. */
  readonly fetchCommit?: string;
  /**
   * Where that commit lives when no branch holds it: a pull request's `refs/pull/N/head` or a
   * merge request's `refs/merge-requests/N/head` (so a fork's commits come without the fork's URL).
   */
  readonly fetchRef?: string;
  /** Request refs fetched too if the remote still has them (a squashed request's original commits); a missing one is no error. */
  readonly optionalRefs?: readonly string[];
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
  /** Removes the clone (nothing for a local repository). Safe to call twice. */
  dispose(): Promise<void>;
}

/** The only refs a job may name: a request's head on GitHub or GitLab. */
export const REQUEST_REF = /^refs\/(?:pull\/[1-9]\d{0,9}\/head|merge-requests\/[1-9]\d{0,9}\/head)$/;

/** Opens a repository for reading: clones a remote into a temporary folder, or reads a local one in place. */
export function openRepository(locator: RepositoryLocator, options: OpenOptions): Promise<ClonedRepository> {
  if (options.branch !== undefined) checkBranchName(options.branch);
  if (options.fetchCommit !== undefined && !isFullCommitId(options.fetchCommit, { anyCase: true })) {
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
  if (options.fetchRef !== undefined && !REQUEST_REF.test(options.fetchRef)) {
    throw new CadenceError('ERR_INVALID_SOURCE', {
      message: `Not a pull or merge request ref: ${JSON.stringify(options.fetchRef.slice(0, 100))}`,
      details: { field: 'ref', reason: 'not a request ref' },
    });
  }
  if (locator.kind === 'local') return openLocal(locator.path, options);
  if (options.mirrors && !(options.depth && options.depth > 0)) return openMirrored(locator, options, options.mirrors);
  return cloneRemote(locator, options);
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
  const isRepo = await runGitCommand(dir, ['rev-parse', '--git-dir'], options.signal);
  if (isRepo.code !== 0)
    throw new CadenceError('ERR_NOT_A_REPOSITORY', {
      message: `Not a git repository: ${dir} (git finds no repository there or above it: name the repository's folder)`,
    });
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
