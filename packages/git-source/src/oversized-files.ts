import { spawn } from 'node:child_process';
import { abortError, CadenceError } from '@cadence-detect/errors';
import type { ReadCommit } from './commit-record.js';
import { gitInvocation, gitEnvironment, memoryBoundError, reachedMemoryBound, type GitBounds } from './git-process.js';

/** A file numstat printed as binary (`-`): a side of it may be above the diff blob cap. */
export interface BinaryFile {
  readonly commit: ReadCommit;
  readonly parent: string;
  readonly path: string;
}

/**
 * Counts, on each commit, the binary files of `binaries` with a side larger than the diff blob cap:
 * one `git cat-file --batch-check` sizes `<commit>:<path>` and `<first parent>:<path>` (a rename's
 * old path is not sized). Files numstat calls binary are few in most histories, and none costs a read.
 */
export async function markOversized(
  dir: string,
  binaries: readonly BinaryFile[],
  bounds: GitBounds,
  signal?: AbortSignal,
): Promise<void> {
  // A path with a newline cannot be named on a batch-check line: such a file is not sized.
  const sized = binaries.filter((b) => !b.path.includes('\n'));
  if (sized.length === 0) return;
  const input = sized
    .map((b) => `${b.commit.record.hash}:${b.path}\n${b.parent ? `${b.parent}:${b.path}` : b.commit.record.hash}\n`)
    .join('');
  const sizes = await batchSizes(dir, input, bounds, signal);
  sized.forEach((file, i) => {
    const after = sizes[2 * i] ?? 0;
    const before = file.parent ? (sizes[2 * i + 1] ?? 0) : 0;
    if (after > bounds.maxDiffBlobBytes || before > bounds.maxDiffBlobBytes) file.commit.oversizedFiles++;
  });
}

/** Blob sizes of `input`'s objects (one a line), in order; 0 for a missing object or one that is no blob. */
function batchSizes(dir: string, input: string, bounds: GitBounds, signal?: AbortSignal): Promise<number[]> {
  return new Promise((resolve, reject) => {
    const git = gitInvocation(dir, ['cat-file', '--batch-check=%(objecttype) %(objectsize)'], bounds);
    const child = spawn(git.command, git.args, {
      cwd: git.cwd,
      stdio: ['pipe', 'pipe', 'pipe'],
      env: gitEnvironment(),
    });
    const onAbort = (): void => {
      child.kill('SIGKILL');
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    const out: Buffer[] = [];
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      if (stderr.length < 4096) stderr += chunk;
    });
    // A git that exits early closes its input: the close below reports it.
    child.stdin.on('error', () => undefined);
    child.stdin.end(input);
    child.on('error', (error) =>
      reject(new CadenceError('ERR_GIT_CLONE_FAILED', { message: `git cat-file failed to start: ${error.message}` })),
    );
    child.on('close', (code, exitSignal) => {
      signal?.removeEventListener('abort', onAbort);
      if (signal?.aborted) {
        reject(abortError(signal));
        return;
      }
      if (code !== 0) {
        reject(
          reachedMemoryBound(exitSignal, stderr)
            ? memoryBoundError('git cat-file', bounds)
            : new CadenceError('ERR_GIT_CLONE_FAILED', {
                message: `git cat-file failed: ${stderr.trim().split('\n')[0] ?? code}`,
              }),
        );
        return;
      }
      resolve(
        Buffer.concat(out)
          .toString('utf8')
          .split('\n')
          .map((line) => {
            const match = /^blob (\d+)$/.exec(line);
            return match ? Number(match[1]) : 0;
          }),
      );
    });
  });
}
