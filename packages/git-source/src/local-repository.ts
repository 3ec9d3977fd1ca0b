import { realpath } from 'node:fs/promises';
import { CadenceError } from '@cadence-detect/errors';
import { pinRepository, runGitDiscovering, type GitResult } from './git-process.js';

/** A folder git cannot even start in (gone, or a file) answers as no repository. */
const NOTHING: GitResult = { code: null, stdout: '', stderr: '' };

/** Where a local repository's git directory and working tree are, resolved once from a folder. */
export interface LocatedRepository {
  /** The git directory (absolute): every later git process gets `--git-dir=<this>`. */
  readonly gitDir: string;
  /** The working tree's top level, links resolved; null for a bare repository named by its own path. */
  readonly top: string | null;
}

export interface LocateOptions {
  /**
   * Whether `dir` may itself be a bare repository (`cadence analyze /srv/repo.git`: the user named
   * the repository). Never for a CI checkout's `path`, whose folders the change can fill.
   */
  readonly allowBare: boolean;
  readonly signal?: AbortSignal;
}

/**
 * Finds the repository `dir` belongs to the one time git is let to discover it, as
 * `git -c safe.bareRepository=explicit rev-parse --absolute-git-dir --show-toplevel`: git walks up
 * from `dir` to a working tree's `.git` and refuses a bare repository on the way (a folder of
 * ordinary files a change committed, with a `config` naming commands). On a git that ignores
 * `safe.bareRepository` (before 2.38), `--show-toplevel` still fails in a bare repository. Then pins
 * `dir` (and the top level) to that git directory: no later git process discovers anything.
 */
export async function locateRepository(dir: string, options: LocateOptions): Promise<LocatedRepository> {
  const found = await runGitDiscovering(
    dir,
    ['-c', 'safe.bareRepository=explicit', 'rev-parse', '--absolute-git-dir', '--show-toplevel'],
    options.signal,
  ).catch(() => NOTHING);
  const [gitDir, top] = found.code === 0 ? found.stdout.trim().split('\n') : [];
  if (gitDir && top) {
    const located = { gitDir, top: await realpath(top) };
    pinRepository(dir, located.gitDir);
    pinRepository(located.top, located.gitDir);
    return located;
  }
  if (options.allowBare) {
    // Named by its own path, a bare repository is explicit: git is told it, not left to find it.
    const gitDirOf = await realpath(dir).catch(() => dir);
    const bare = await runGitDiscovering(
      gitDirOf,
      [`--git-dir=${gitDirOf}`, 'rev-parse', '--is-bare-repository'],
      options.signal,
    ).catch(() => NOTHING);
    if (bare.code === 0 && bare.stdout.trim() === 'true') {
      pinRepository(dir, gitDirOf);
      return { gitDir: gitDirOf, top: null };
    }
  }
  throw new CadenceError('ERR_NOT_A_REPOSITORY', {
    message: options.allowBare
      ? `Not a git repository: ${dir} (git finds no repository there or above it: name the repository's folder)`
      : `Not a git repository: ${dir} (git finds no repository with a working tree there or above it; a bare repository is refused)`,
  });
}
