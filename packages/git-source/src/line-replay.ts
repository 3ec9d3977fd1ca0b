import { spawn } from 'node:child_process';
import type { Readable } from 'node:stream';
import { abortError, errorMessage } from '@cadence-detect/errors';
import { gitInvocation, DEFAULT_GIT_BOUNDS, gitEnvironment, type GitBounds } from './git-process.js';
import { unquoteGitPath } from './git-quoting.js';
import { ownString } from './own-string.js';

/** A line whose origin the replay cannot know (it came in through a merge, or its file was not followed). */
export const UNKNOWN_ORIGIN = -1;

export interface ReplayedCommit {
  readonly hash: string;
  readonly isMerge: boolean;
}

/** A deleted line, seen by the replay: who wrote it (an index into the replayed commits, or UNKNOWN_ORIGIN) and where it was. */
export interface Deletion {
  /** The deleting commit (full hash). */
  readonly by: string;
  /** The commit that wrote the line, or null when the replay cannot know (a merge brought it in). */
  readonly origin: string | null;
  /** The parent's path and line number (1-based): where a blame of the first parent finds it. */
  readonly path: string;
  readonly line: number;
  /** Whether the writing commit's line-level record names the line an assistant's. */
  readonly marked: boolean;
}

/** The assistant line ranges a commit's record names in a file (as numbered in that commit), if it has any. */
export type RecordedRanges = (
  commit: string,
  path: string,
) => readonly { readonly start: number; readonly end: number }[] | undefined;

/** One file of a commit's `-U0` diff: its paths before and after, and its hunks `[oldStart, oldCount, newStart, newCount]`. */
export interface FileDiff {
  oldPath: string | null;
  newPath: string | null;
  renameFrom: string | null;
  renameTo: string | null;
  binary: boolean;
  hunks: [number, number, number, number][];
  /** The `index` line names the empty blob (e69de29, seven hex digits or more): a file created or deleted empty. */
  emptyBlob?: true;
  /** With `DiffHandlers.content`: the removed and the added lines' text, in order (without their `-`/`+`). */
  removed?: string[];
  added?: string[];
}

/** How a diff read runs: stopped by `signal`, fed `input`, within `bounds`. */
export interface DiffReadOptions {
  readonly signal?: AbortSignal | undefined;
  readonly input?: string;
  readonly bounds?: GitBounds | undefined;
}

export interface DiffHandlers {
  /**
   * A commit starts (`%x00%H %P` format line): its hash, whether it is a merge, and its parents.
   * A promise returned pauses the read (git waits on its pipe) until it settles; a rejected one ends it.
   */
  commit(hash: string, isMerge: boolean, parents: readonly string[]): void | Promise<void>;
  /** One file of the current commit, whole. */
  file(diff: FileDiff): void;
  /** Keep the removed and added lines' text (`FileDiff.removed`, `.added`): moved lines are matched by it. */
  readonly content?: boolean;
}

/**
 * Streams `git <args>` (a `log -p -U0 --format=%x00%H %P` of some kind) and hands each commit and
 * each file diff to `handlers` as they arrive; hunk bodies are skipped by their counts, so a
 * content line that looks like a header is never read as one. `input` is written to git's stdin
 * (for `--stdin`). git runs under `bounds` (the history read's: the blob cap of
 * `limits.max_diff_blob_mb` and the memory ceiling; DEFAULT_GIT_BOUNDS when absent). Rejects when
 * git fails or `signal` aborts.
 */
export function streamCommitDiffs(
  dir: string,
  args: readonly string[],
  handlers: DiffHandlers,
  { signal, input, bounds = DEFAULT_GIT_BOUNDS }: DiffReadOptions = {},
): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(abortError(signal));
      return;
    }
    // Within the history read's bounds: this is the same kind of `git log -p` over the same history.
    const git = gitInvocation(dir, ['-c', 'core.quotePath=false', ...args], bounds);
    const child = spawn(git.command, git.args, {
      cwd: git.cwd,
      stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'ignore'],
      env: gitEnvironment(),
    });
    if (input !== undefined) {
      child.stdin!.on('error', () => undefined);
      child.stdin!.end(input);
    }
    const onAbort = (): void => {
      child.kill('SIGKILL');
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    const parser = new DiffParser(handlers, onAbort);
    const feed = pausableLines(
      child.stdout!,
      (line) => parser.line(line),
      (error) => parser.fail(error),
    );
    child.on('error', reject);
    const ended = (code: number | null): void => {
      if (feed.waiting()) {
        void feed.continuation().then(() => ended(code));
        return;
      }
      signal?.removeEventListener('abort', onAbort);
      if (signal?.aborted) {
        reject(abortError(signal));
        return;
      }
      parser.finishFile();
      if (parser.failure)
        reject(parser.failure instanceof Error ? parser.failure : new Error(errorMessage(parser.failure)));
      else if (code === 0) resolve();
      else reject(new Error(`git ${args[0]} exited with ${code}`));
    };
    child.on('close', ended);
  });
}

/**
 * Reads `stream` line by line (lines end at "\n" alone: a lone carriage return inside a line, in a
 * file git reads as text, is part of it, where readline would split there and upset the hunks' line
 * counts). A line whose handler answers a promise pauses the stream until it settles: the lines read
 * meanwhile are fed once it has, before the next chunk; a rejection goes to `onFailure`.
 */
function pausableLines(
  stream: Readable,
  onLine: (line: string) => Promise<void> | undefined,
  onFailure: (error: unknown) => void,
): { waiting(): boolean; continuation(): Promise<void> } {
  let pendingText = '';
  let waiting = false;
  let queued: string[] = [];
  /** What runs once the queued lines are fed: git may have ended (its output read whole) while a handler waited. */
  let continuation: Promise<void> = Promise.resolve();
  const feed = (lines: string[]): void => {
    for (let i = 0; i < lines.length; i++) {
      const pause = onLine(lines[i]!);
      if (!pause) continue;
      waiting = true;
      queued = lines.slice(i + 1).concat(queued);
      stream.pause();
      continuation = pause.then(
        () => {
          waiting = false;
          const rest = queued;
          queued = [];
          feed(rest);
          // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- Set in a callback TypeScript does not follow
          if (!waiting) stream.resume();
        },
        (error: unknown) => {
          onFailure(error);
          waiting = false;
          queued = [];
          stream.resume();
        },
      );
      return;
    }
  };
  stream.setEncoding('utf8');
  stream.on('data', (chunk: string) => {
    const lines = (pendingText + chunk).split('\n');
    pendingText = lines.pop() ?? '';
    // A loop, not a spread: a chunk can hold tens of thousands of lines.
    if (waiting) for (const line of lines) queued.push(line);
    else feed(lines);
  });
  stream.on('end', () => {
    if (pendingText && waiting) queued.push(pendingText);
    else if (pendingText) feed([pendingText]);
    pendingText = '';
  });
  return { waiting: () => waiting, continuation: () => continuation };
}

/** One `-U0` diff's lines, read in order: commits and whole files go to the handlers; hunk bodies are skipped by their counts. */
class DiffParser {
  failure: unknown = null;
  private file: FileDiff | null = null;
  /** The `diff --git` line of the current file and what its mode lines said. */
  private header = { line: '', created: false, deleted: false };
  /** Lines of the current hunk still to skip (its `-` and `+` lines). */
  private skip = 0;

  constructor(
    private readonly handlers: DiffHandlers,
    private readonly stop: () => void,
  ) {}

  fail(error: unknown): void {
    this.failure ??= error;
    this.stop();
  }

  line(line: string): Promise<void> | undefined {
    if (this.failure) return undefined;
    if (this.skip > 0) {
      this.hunkLine(line);
      return undefined;
    }
    if (line.startsWith('\0')) return this.commit(line);
    if (line.startsWith('diff --git ')) {
      this.finishFile();
      this.header = { line, created: false, deleted: false };
      this.file = { oldPath: null, newPath: null, renameFrom: null, renameTo: null, binary: false, hunks: [] };
    } else if (this.file) this.fileLine(this.file, line);
    return undefined;
  }

  /** Hands the current file to its handler, with the diff --git line's path where an empty file created or deleted has no ---/+++ lines. */
  finishFile(): void {
    const file = this.file;
    this.file = null;
    if (!file) return;
    if (!file.oldPath && !file.newPath && !file.renameFrom && !file.renameTo) {
      const path = headerPath(this.header.line);
      if (path !== null) {
        if (!this.header.created) file.oldPath = path;
        if (!this.header.deleted) file.newPath = path;
      }
    }
    if (this.failure) return;
    try {
      this.handlers.file(file);
    } catch (error) {
      this.fail(error);
    }
  }

  private hunkLine(line: string): void {
    if (line.startsWith('\\')) return; // "\ No newline at end of file" belongs to the line before
    this.skip--;
    if (this.handlers.content && this.file) {
      if (line.startsWith('-')) (this.file.removed ??= []).push(line.slice(1));
      else if (line.startsWith('+')) (this.file.added ??= []).push(line.slice(1));
    }
  }

  private commit(line: string): Promise<void> | undefined {
    this.finishFile();
    // Copies: what a handler keeps must not keep this commit's whole text (ownString).
    const [hash = '', ...parents] = line.slice(1).trim().split(' ').map(ownString);
    try {
      return this.handlers.commit(hash, parents.length > 1, parents) ?? undefined;
    } catch (error) {
      this.fail(error);
      return undefined;
    }
  }

  private fileLine(file: FileDiff, line: string): void {
    if (line.startsWith('new file mode ')) this.header.created = true;
    else if (line.startsWith('deleted file mode ')) this.header.deleted = true;
    else if (line.startsWith('--- ')) file.oldPath = line === '--- /dev/null' ? null : diffPath(line.slice(4), 'a/');
    else if (line.startsWith('+++ ')) file.newPath = line === '+++ /dev/null' ? null : diffPath(line.slice(4), 'b/');
    else if (line.startsWith('rename from ')) file.renameFrom = ownString(unquoteGitPath(line.slice(12)));
    else if (line.startsWith('rename to ')) file.renameTo = ownString(unquoteGitPath(line.slice(10)));
    else if (line.startsWith('Binary files ')) file.binary = true;
    else if (line.startsWith('index ') && /[ .]e69de29[0-9a-f]*(?:\.|\s|$)/.test(line)) file.emptyBlob = true;
    else if (line.startsWith('@@ ')) {
      const hunk = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/.exec(line);
      if (!hunk) return;
      const b = hunk[2] === undefined ? 1 : Number(hunk[2]);
      const d = hunk[4] === undefined ? 1 : Number(hunk[4]);
      file.hunks.push([Number(hunk[1]), b, Number(hunk[3]), d]);
      this.skip = b + d;
    }
  }
}

/** A path of a ---/+++ line: unquoted, its a/ or b/ taken off, and the tab git adds after a name with a blank. */
function diffPath(text: string, side: 'a/' | 'b/'): string {
  const path = unquoteGitPath(text.endsWith('\t') ? text.slice(0, -1) : text);
  return ownString(path.startsWith(side) ? path.slice(2) : path);
}

/** The path of a `diff --git a/P b/P` line when both sides name the same unquoted path; null otherwise. */
function headerPath(line: string): string | null {
  const rest = line.slice('diff --git '.length);
  if (!rest.startsWith('a/') || (rest.length - 5) % 2 !== 0) return null;
  const length = (rest.length - 5) / 2;
  const path = rest.slice(2, 2 + length);
  return rest.slice(2 + length) === ` b/${path}` ? ownString(path) : null;
}

/** The diff options every line pass shares: no context, whitespace ignored, renames followed. */
export const LINE_DIFF_ARGS = [
  '-p',
  '-U0',
  '-w',
  '-M',
  '--no-color',
  '--no-ext-diff',
  '--no-textconv',
  '--format=%x00%H %P',
] as const;

/**
 * Replays the first-parent history, oldest first, from ONE streaming
 * `git log --first-parent --diff-merges=first-parent -p -U0 -w -M --reverse`: each followed file
 * keeps, per line, the index of the commit that wrote it; every deleted line is handed to
 * `onDeletion` with that origin. Whitespace-only changes keep a line's origin (`-w`); a rename moves
 * the file's lines. A merge's lines (the side branch's work) get UNKNOWN_ORIGIN, as do files that
 * are skipped (`follows` false: excluded or binary). Each line's origin is stored as `index * 2 + m`,
 * m being 1 when the writing commit's record (`recorded`) names the line an assistant's.
 */
export async function replayFirstParent(
  dir: string,
  head: string,
  follows: (path: string) => boolean,
  onDeletion: (deletion: Deletion) => void,
  signal?: AbortSignal,
  recorded?: RecordedRanges,
  bounds?: GitBounds,
): Promise<void> {
  const replay: FirstParentReplay = { files: new Map(), commits: [], follows, onDeletion, recorded };
  await streamCommitDiffs(
    dir,
    ['log', '--first-parent', '--diff-merges=first-parent', '--reverse', ...LINE_DIFF_ARGS, '--end-of-options', head],
    {
      commit: (hash, isMerge) => {
        replay.commits.push({ hash, isMerge });
      },
      file: (diff) => applyDiff(replay, diff),
    },
    { signal, bounds },
  );
}

/** The replay's state: each followed file's lines by origin (`index * 2 + marked`), and the commits so far. */
interface FirstParentReplay {
  readonly files: Map<string, number[]>;
  readonly commits: ReplayedCommit[];
  readonly follows: (path: string) => boolean;
  readonly onDeletion: (deletion: Deletion) => void;
  readonly recorded: RecordedRanges | undefined;
}

/** Each line a diff deletes, with no known writer. */
function unknownDeletions(diff: FileDiff, by: string, path: string, onDeletion: (deletion: Deletion) => void): void {
  for (const [a, b] of diff.hunks)
    for (let i = 0; i < b; i++) onDeletion({ by, origin: null, path, line: a + i, marked: false });
}

/** One file's diff of the latest commit: its deleted lines handed on with their origins, its file's lines rewritten. */
function applyDiff(replay: FirstParentReplay, diff: FileDiff): void {
  const { files, commits, onDeletion } = replay;
  const index = commits.length - 1;
  const commit = commits[index];
  if (!commit) return;
  const from = diff.oldPath ?? diff.renameFrom;
  const to = diff.newPath ?? diff.renameTo;
  const old = from ? files.get(from) : [];
  if (from && to !== from) files.delete(from);
  if (diff.binary || (to && !replay.follows(to))) {
    if (to) files.delete(to);
    return;
  }
  if (old === undefined) {
    // A file not followed before (binary or excluded until now): its lines' origins stay unknown.
    if (to) files.delete(to);
    unknownDeletions(diff, commit.hash, from!, onDeletion);
    return;
  }
  const origin = commit.isMerge ? UNKNOWN_ORIGIN : index * 2;
  const ranges = commit.isMerge || !to ? undefined : replay.recorded?.(commit.hash, to);
  const isMarked = (line: number): boolean =>
    ranges !== undefined && ranges.some((r) => r.start <= line && line <= r.end);
  const known = (at: number): boolean => old[at] !== undefined && old[at] !== UNKNOWN_ORIGIN;
  const out: number[] = [];
  let position = 0;
  for (const [a, b, c, d] of diff.hunks) {
    const start = b === 0 ? a : a - 1;
    for (; position < start && position < old.length; position++) out.push(old[position]!);
    for (let i = 0; i < b; i++, position++)
      onDeletion({
        by: commit.hash,
        origin: known(position) ? commits[old[position]! >> 1]!.hash : null,
        path: from!,
        line: position + 1,
        marked: known(position) && (old[position]! & 1) === 1,
      });
    for (let i = 0; i < d; i++) out.push(origin === UNKNOWN_ORIGIN ? origin : origin + (isMarked(c + i) ? 1 : 0));
  }
  for (; position < old.length; position++) out.push(old[position]!);
  if (to) files.set(to, out);
}
