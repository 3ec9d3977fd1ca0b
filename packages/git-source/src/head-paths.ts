import { spawn } from 'node:child_process';
import { abortError } from '@cadence-detect/errors';
import { gitInvocation, DEFAULT_GIT_BOUNDS, gitEnvironment, type GitBounds } from './git-process.js';

/**
 * Beyond this many paths the tree is not recorded (null): a report then cannot tell which files
 * remain, rather than the host holding an unbounded set. The largest public monorepos hold a few
 * hundred thousand files.
 */
export const MAX_HEAD_PATHS = 1_000_000;

export interface HeadPathsOptions {
  readonly signal?: AbortSignal;
  readonly bounds?: GitBounds;
  /** MAX_HEAD_PATHS unless given (tests give less). */
  readonly maxPaths?: number;
}

/**
 * The files (blobs and symlinks, full paths) of the tree at `rev`, from ONE streaming
 * `git ls-tree -r -z --name-only --end-of-options <rev>` (argument array, no shell): what reports
 * point at, since a path a commit changed may be gone at the analysed head. Null when git cannot
 * list it (an unknown revision, a missing object) or the tree has more than `maxPaths` files:
 * the record is a convenience for reports, never a reason to fail an analysis. Rejects only when
 * `signal` aborts.
 */
export function readHeadPaths(dir: string, rev: string, options: HeadPathsOptions = {}): Promise<Set<string> | null> {
  const maxPaths = options.maxPaths ?? MAX_HEAD_PATHS;
  const signal = options.signal;
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(abortError(signal));
      return;
    }
    const git = gitInvocation(
      dir,
      ['ls-tree', '-r', '-z', '--name-only', '--end-of-options', rev],
      options.bounds ?? DEFAULT_GIT_BOUNDS,
    );
    const child = spawn(git.command, git.args, {
      cwd: git.cwd,
      stdio: ['ignore', 'pipe', 'ignore'],
      env: gitEnvironment(),
    });
    const paths = new Set<string>();
    let pending: Buffer[] = [];
    let tooMany = false;
    const onAbort = (): void => {
      child.kill('SIGKILL');
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    // Split on NUL before decoding: a character split across two chunks is decoded whole.
    child.stdout.on('data', (chunk: Buffer) => {
      if (tooMany) return;
      let start = 0;
      for (let end = chunk.indexOf(0, start); end !== -1; end = chunk.indexOf(0, start)) {
        const piece = chunk.subarray(start, end);
        paths.add((pending.length > 0 ? Buffer.concat([...pending, piece]) : piece).toString('utf8'));
        pending = [];
        start = end + 1;
        if (paths.size > maxPaths) {
          tooMany = true;
          paths.clear();
          child.kill('SIGKILL');
          return;
        }
      }
      if (start < chunk.length) pending.push(chunk.subarray(start));
    });
    child.on('error', () => {
      signal?.removeEventListener('abort', onAbort);
      resolve(null);
    });
    child.on('close', (code) => {
      signal?.removeEventListener('abort', onAbort);
      if (signal?.aborted) reject(abortError(signal));
      else resolve(code === 0 && !tooMany && pending.length === 0 ? paths : null);
    });
  });
}
