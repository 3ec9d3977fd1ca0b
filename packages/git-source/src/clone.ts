import { CadenceError } from '@cadence-detect/errors';
import { isFullCommitId } from '@cadence-detect/plugin-sdk';
import { branchNotFoundMessage } from './branch-hint.js';
import {
  checkBranchName,
  currentBranch,
  REQUEST_REF,
  type ClonedRepository,
  type OpenOptions,
} from './clone-options.js';
import { runGitCommand } from './git-process.js';
import { locateRepository } from './local-repository.js';
import { openMirrored } from './mirror-clone.js';
import type { RepositoryLocator } from './repository-url.js';
import { cloneRemote } from './temporary-clone.js';

export { checkBranchName, currentBranch, REQUEST_REF, type ClonedRepository, type OpenOptions };

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
    return { ...clone, resolvedCommit: await resolvePrefix(clone.dir, options.fetchCommit, options.signal) };
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

async function openLocal(dir: string, options: OpenOptions): Promise<ClonedRepository> {
  await locateRepository(dir, { allowBare: true, signal: options.signal });
  const rev = options.branch ?? 'HEAD';
  // One git process answers two questions: whether the repository is shallow (printed first, for
  // any repository) and the commit `rev` names (printed after it, when there is one).
  const head = await runGitCommand(
    dir,
    ['rev-parse', '--is-shallow-repository', '--verify', '--quiet', '--end-of-options', `${rev}^{commit}`],
    options.signal,
  );
  const [shallowAnswer, headCommit] = head.stdout.trim().split('\n');
  if (head.code !== 0 || headCommit === undefined) {
    throw options.branch
      ? new CadenceError('ERR_BRANCH_NOT_FOUND', {
          message: await branchNotFoundMessage(dir, options.branch, options.signal),
        })
      : new CadenceError('ERR_NO_COMMITS_FOUND', { message: `The repository at ${dir} has no commits` });
  }
  const branch = options.branch ?? (await currentBranch(dir, options.signal));
  return {
    dir,
    headCommit,
    branch,
    shallow: shallowAnswer === 'true',
    dispose: async () => undefined,
  };
}
