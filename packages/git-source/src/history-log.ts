import { spawn } from 'node:child_process';
import type { Readable } from 'node:stream';
import { setPriority } from 'node:os';
import { abortError, CadenceError } from '@cadence-detect/errors';
import { commitRecordSink, type ReadCommit } from './commit-record.js';
import { gitEnvironment, gitInvocation, memoryBoundError, reachedMemoryBound, type GitBounds } from './git-process.js';
import { createLogStreamParser, LOG_FORMAT, type LogSink } from './log-stream.js';
import type { BinaryFile } from './oversized-files.js';
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

/** How a history log lists its commits: every commit (`everyCommit`), without a diff (`counted` false), or the ones on stdin. */
export interface LogListing {
  readonly everyCommit?: boolean | undefined;
  readonly counted?: boolean | undefined;
  /** The commits to list, one full id a line, fed on stdin (`--no-walk --stdin`) instead of `rev`'s history. */
  readonly only?: readonly string[] | undefined;
}

/**
 * `git log -z --numstat` of the revision, the chosen `.mailmap` alone; with `everyCommit`, a commit
 * that touched only left-out paths is still listed; not `counted`: the commits alone, no diff.
 */
export function logArguments(options: HistoryLogOptions, listing: LogListing = {}): string[] {
  const { everyCommit = false, counted = true, only } = listing;
  return [
    // The chosen `.mailmap` alone: `mailmap.file` emptied, and no working tree is read (gitInvocation).
    '-c',
    `mailmap.blob=${options.mailmap.blob}`,
    '-c',
    'mailmap.file=',
    // Counted without context, as `git blame` and the line pass's `-p -U0` count: with numstat's
    // default context of 3 lines, git can count an unchanged line between two nearby changes as
    // deleted and added (about 1 numstat entry in 700 on the mirrors checked). `-U0` would print
    // the patch as well.
    '-c',
    'diff.context=0',
    'log',
    '-z',
    ...(counted
      ? [
          '--numstat',
          // Renames followed whatever `diff.renames` says: as the one line pass follows them (`-M`),
          // whose diffs give these counts when it reads the same history (pass-counts.ts).
          '-M',
          // The indent heuristic only slides where a hunk sits, never how many lines it adds or deletes:
          // numstat's counts are the same without it, and git diffs the history 8 to 10% faster.
          '--no-indent-heuristic',
        ]
      : []),
    '--no-color',
    '--no-ext-diff',
    '--no-textconv',
    '--no-show-signature',
    ...(everyCommit ? ['--full-history', '--sparse'] : []),
    LOG_FORMAT,
    ...(only ? ['--no-walk=unsorted', '--stdin'] : ['--end-of-options', options.rev]),
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

/** How a history log runs: its arguments, and what it reports while it reads. */
export interface RunLogOptions extends HistoryLogOptions {
  readonly signal?: AbortSignal | undefined;
  readonly onProgress?: ((read: number) => void) | undefined;
  readonly niceness?: number | undefined;
}

/**
 * One `git log -z` of the history (logArguments), parsed as it streams (log-stream.ts) into compact
 * records; the files numstat calls binary are noted in `binaries` for markOversized.
 */
export function runLog(
  dir: string,
  options: RunLogOptions,
  bounds: GitBounds,
  reading: LogListing & {
    readonly isExcluded: (path: string) => boolean;
    readonly boundary: ReadonlySet<string>;
    readonly binaries: BinaryFile[];
  },
): Promise<ReadCommit[]> {
  const { isExcluded, boundary, binaries } = reading;
  return new Promise((resolve, reject) => {
    const git = gitInvocation(dir, logArguments(options, reading), bounds);
    const child = spawn(git.command, git.args, {
      cwd: git.cwd,
      stdio: [reading.only ? 'pipe' : 'ignore', 'pipe', 'pipe'],
      env: gitEnvironment(),
    });
    if (reading.only) {
      child.stdin?.on('error', () => undefined);
      child.stdin?.end(reading.only.map((hash) => `${hash}\n`).join(''));
    }
    if (options.niceness) lowerPriority(child.pid, options.niceness);
    const commits: ReadCommit[] = [];
    let stderr = '';
    const onAbort = (): void => {
      child.kill('SIGKILL');
    };
    options.signal?.addEventListener('abort', onAbort, { once: true });
    const records = commitRecordSink(isExcluded, boundary, (commit) => {
      commits.push(commit);
      if (commits.length % 1000 === 0) options.onProgress?.(commits.length);
    });
    const parser = createLogStreamParser(notingBinaries(records, commits, binaries));
    // Decoded here so that a character split across two chunks reaches the parser whole.
    const { stdout: out, stderr: err } = child as { stdout: Readable; stderr: Readable };
    out.setEncoding('utf8');
    out.on('data', (chunk: string) => parser.push(chunk));
    err.setEncoding('utf8');
    err.on('data', (chunk: string) => {
      if (stderr.length < 4096) stderr += chunk;
    });
    child.on('error', (error) =>
      reject(new CadenceError('ERR_GIT_CLONE_FAILED', { message: `git log failed to start: ${error.message}` })),
    );
    child.on('close', (code, signal) => {
      options.signal?.removeEventListener('abort', onAbort);
      if (options.signal?.aborted) reject(abortError(options.signal));
      else if (code !== 0) reject(logFailure(signal, stderr, code, options.rev, bounds));
      else {
        parser.finish();
        options.onProgress?.(commits.length);
        resolve(commits);
      }
    });
  });
}

/** The records' sink, noting the files numstat calls binary (`-`) with their commit and its first parent: markOversized sizes them. */
function notingBinaries(records: LogSink, commits: readonly ReadCommit[], binaries: BinaryFile[]): LogSink {
  let parent = '';
  const binaryPaths: string[] = [];
  return {
    commit(header) {
      records.commit(header);
      parent = header[1].split(' ')[0] ?? '';
      binaryPaths.length = 0;
    },
    file(added, deleted, filePath) {
      records.file(added, deleted, filePath);
      if (added === '-' || deleted === '-') binaryPaths.push(filePath);
    },
    end() {
      records.end();
      const commit = commits[commits.length - 1];
      if (commit) for (const filePath of binaryPaths) binaries.push({ commit, parent, path: filePath });
      binaryPaths.length = 0;
    },
  };
}
