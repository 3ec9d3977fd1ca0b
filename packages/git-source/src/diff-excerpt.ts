import { spawn } from 'node:child_process';
import { abortError, CadenceError } from '@cadence-detect/errors';
import { excludeMatcher } from './exclude-matcher.js';
import { gitInvocation, DEFAULT_GIT_BOUNDS, gitEnvironment, type GitBounds } from './git-process.js';
import { isCommitIdPrefix } from '@cadence-detect/plugin-sdk';

export interface DiffExcerptOptions {
  readonly maxBytes: number;
  readonly excludeFiles: readonly string[];
  readonly signal?: AbortSignal;
  /**
   * As the history's (readHistory): blobs above the cap show as `Binary files … differ`, and a git
   * past its memory ceiling stops, leaving the excerpt read so far. DEFAULT_GIT_BOUNDS when absent.
   */
  readonly bounds?: GitBounds;
}

const FILE_HEADER = /^diff --git a\/(.*) b\/(.*)$/;

/**
 * The start of one commit's patch, excluded files left out, cut at `maxBytes`: git is stopped as
 * soon as the excerpt is full, so a huge commit costs no more than a small one.
 */
export function diffExcerpt(dir: string, hash: string, options: DiffExcerptOptions): Promise<string> {
  if (!isCommitIdPrefix(hash, { anyCase: true }))
    return Promise.reject(new CadenceError('ERR_INVALID_SOURCE', { message: `Not a commit id: ${hash}` }));
  // A caller already stopped (a strategy past its budget) starts no git.
  if (options.signal?.aborted) return Promise.reject(abortError(options.signal));
  const isExcluded = excludeMatcher(options.excludeFiles);
  return new Promise((resolve, reject) => {
    const git = gitInvocation(
      dir,
      ['show', '--format=', '--patch', '--no-color', '--no-ext-diff', '--no-textconv', '--end-of-options', hash, '--'],
      options.bounds ?? DEFAULT_GIT_BOUNDS,
    );
    const child = spawn(git.command, git.args, {
      cwd: git.cwd,
      stdio: ['ignore', 'pipe', 'ignore'],
      env: gitEnvironment(),
    });
    let excerpt = '';
    let pending = '';
    let skipping = false;
    let done = false;
    const finish = (): void => {
      if (done) return;
      done = true;
      child.kill('SIGKILL');
      resolve(excerpt);
    };
    const onAbort = (): void => {
      done = true;
      child.kill('SIGKILL');
      reject(options.signal ? abortError(options.signal) : new CadenceError('ERR_CANCELLED'));
    };
    options.signal?.addEventListener('abort', onAbort, { once: true });
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      if (done) return;
      pending += chunk;
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) {
        const header = FILE_HEADER.exec(line);
        if (header) skipping = isExcluded(header[2] ?? '');
        if (skipping) continue;
        if (Buffer.byteLength(excerpt) + Buffer.byteLength(line) + 1 > options.maxBytes) {
          excerpt += '\n[… truncated]';
          finish();
          return;
        }
        excerpt += `${line}\n`;
      }
    });
    child.on('error', (error) => {
      if (!done) reject(new CadenceError('ERR_INTERNAL', { message: `git show failed: ${error.message}` }));
    });
    child.on('close', () => {
      options.signal?.removeEventListener('abort', onAbort);
      if (!done && pending && !skipping) excerpt += pending;
      finish();
    });
  });
}
