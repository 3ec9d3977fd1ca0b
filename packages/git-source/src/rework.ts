import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import type { CommitRecord } from '@cadence-detect/plugin-sdk';
import { abortError } from '@cadence-detect/errors';
import { gitEnvironment } from './git-process.js';
import { blameFile } from './head-lines.js';
import { replayFirstParent } from './line-replay.js';

export const REWORK_WINDOW_SECONDS = 14 * 86_400;

export interface ReworkOptions {
  /** Paths left out of line counts (the same rule as the lines at HEAD). */
  readonly isExcluded: (path: string) => boolean;
  readonly windowSeconds?: number;
  /** Diffs and blames at a time. */
  readonly concurrency?: number;
  readonly signal?: AbortSignal;
  /**
   * The commits are the whole history up to `head` (no range, no `--since`): the first-parent history
   * is replayed in one `git log -p` and only lines of unknown origin (brought in by a merge) are
   * blamed. Otherwise each deleting commit's lines are blamed.
   */
  readonly replayFrom?: string;
}

/** The lines a commit's diff removes from its parent, by the parent's path: `[start, count]` ranges. */
export function deletedRanges(diff: string): Map<string, [number, number][]> {
  const ranges = new Map<string, [number, number][]>();
  let oldPath: string | null = null;
  for (const line of diff.split('\n')) {
    if (line.startsWith('diff --git ')) oldPath = null;
    else if (line.startsWith('--- ')) oldPath = line === '--- /dev/null' ? null : unquote(line.slice(4)).replace(/^a\//, '');
    else if (line.startsWith('@@ ') && oldPath) {
      const hunk = /^@@ -(\d+)(?:,(\d+))? \+/.exec(line);
      const count = hunk ? (hunk[2] === undefined ? 1 : Number(hunk[2])) : 0;
      if (hunk && count > 0) ranges.set(oldPath, [...(ranges.get(oldPath) ?? []), [Number(hunk[1]), count]]);
    }
  }
  return ranges;
}

/** A path git printed in C quotes (core.quotePath is off, but tabs and newlines still are quoted). */
function unquote(text: string): string {
  if (!text.startsWith('"')) return text;
  try {
    return JSON.parse(text) as string;
  } catch {
    return text;
  }
}

/**
 * Lines reworked within the window: a line deleted or rewritten (whitespace ignored, renames
 * followed) by a commit whose author date is at most the window after the author date of the
 * commit that wrote it charges that writer one reworked line; a line deleted and later restored
 * was still reworked. With `replayFrom`, the first-parent history is replayed (line-replay.ts) and
 * only lines that came in through a merge are blamed; otherwise each deleting commit's parent is
 * blamed over exactly the lines it deletes (`git blame -w -M -L … --since`). A path no other commit
 * touched within the window cannot hold such lines and is never blamed. Rework inside a side
 * branch before its merge is not seen by the replay. Returns reworked lines by writer commit.
 */
export async function readReworkedLines(dir: string, commits: readonly CommitRecord[], options: ReworkOptions): Promise<Map<string, number>> {
  const window = options.windowSeconds ?? REWORK_WINDOW_SECONDS;
  const byHash = new Map(commits.map((c) => [c.hash, c]));
  const touched = new Map<string, CommitRecord[]>();
  for (const commit of commits) {
    for (const file of commit.files) {
      const list = touched.get(file.path) ?? [];
      list.push(commit);
      touched.set(file.path, list);
    }
  }
  const times = commits.map((c) => c.authorTime).sort((a, b) => a - b);
  const anyWithin = (time: number): boolean => {
    // Another commit authored in [time - window, time]: binary search for the first at or after time - window.
    let low = 0;
    let high = times.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (times[mid]! < time - window) low = mid + 1;
      else high = mid;
    }
    let count = 0;
    for (let i = low; i < times.length && times[i]! <= time; i++) if (++count > 1) return true;
    return false;
  };
  const candidates = new Set(commits.filter((c) => c.parents.length >= 1 && c.deletions + c.excludedDeletions > 0 && anyWithin(c.authorTime)).map((c) => c.hash));
  const recentlyTouched = (commit: CommitRecord, path: string): boolean =>
    (touched.get(path) ?? []).some((other) => other !== commit && other.authorTime >= commit.authorTime - window && other.authorTime <= commit.authorTime);
  const reworked = new Map<string, number>();
  const charge = (writer: CommitRecord | undefined, deleter: CommitRecord, lines: number): void => {
    if (!writer || deleter.authorTime - writer.authorTime > window || writer.authorTime > deleter.authorTime) return;
    reworked.set(writer.hash, (reworked.get(writer.hash) ?? 0) + lines);
  };
  // Lines to blame in a deleting commit's first parent: by commit, by path, the parent's line numbers.
  const work: { commit: CommitRecord; path: string; ranges: [number, number][] }[] = [];
  if (options.replayFrom) {
    const unknown = new Map<string, Map<string, number[]>>();
    await replayFirstParent(dir, options.replayFrom, (path) => !options.isExcluded(path), (deletion) => {
      if (options.isExcluded(deletion.path)) return;
      const deleter = byHash.get(deletion.by);
      if (!deleter) return;
      if (deletion.origin !== null) {
        charge(byHash.get(deletion.origin), deleter, 1);
        return;
      }
      if (!candidates.has(deleter.hash) || !recentlyTouched(deleter, deletion.path)) return;
      const byPath = unknown.get(deleter.hash) ?? new Map<string, number[]>();
      const lines = byPath.get(deletion.path) ?? [];
      lines.push(deletion.line);
      byPath.set(deletion.path, lines);
      unknown.set(deleter.hash, byPath);
    }, options.signal);
    for (const [hash, paths] of unknown) for (const [path, lines] of paths) work.push({ commit: byHash.get(hash)!, path, ranges: toRanges(lines) });
  } else {
    // What each candidate deletes, from ONE `git log -p -U0 -w -M` over the history (a diff per commit would be a process each).
    const single = new Set([...candidates].filter((hash) => !byHash.get(hash)!.isMerge));
    await eachCommitDiff(dir, commits.at(-1)?.hash, single, options.signal, (hash, diff) => {
      const commit = byHash.get(hash)!;
      for (const [path, ranges] of deletedRanges(diff)) {
        if (!options.isExcluded(path) && recentlyTouched(commit, path)) work.push({ commit, path, ranges });
      }
    });
  }
  const worker = async (): Promise<void> => {
    for (let next = work.shift(); next; next = work.shift()) {
      const { commit, path, ranges } = next;
      const parent = commit.parents[0]!;
      // Commits older than the window (by committer date, never earlier than the author date) are not walked.
      const blamed = await blameFile(dir, parent, path, options.signal, ranges, commit.authorTime - window).catch(() => null);
      for (const [writer, lines] of blamed?.byCommit ?? []) if (!blamed!.boundary.has(writer)) charge(byHash.get(writer), commit, lines);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, options.concurrency ?? 2) }, () => worker()));
  return reworked;
}

/**
 * Streams `git log -p -U0 -w -M --no-merges` from `head` and hands each wanted commit's diff text
 * to `each` (the rest is skipped as it streams: only the wanted commits' diffs are held, one at a time).
 */
function eachCommitDiff(dir: string, head: string | undefined, wanted: ReadonlySet<string>, signal: AbortSignal | undefined, each: (hash: string, diff: string) => void): Promise<void> {
  if (!head || wanted.size === 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(abortError(signal));
      return;
    }
    const child = spawn('git', ['-c', 'core.quotePath=false', 'log', '-p', '-U0', '-w', '-M', '--no-merges', '--no-color', '--no-ext-diff', '--format=%x00%H', '--end-of-options', head], { cwd: dir, stdio: ['ignore', 'pipe', 'ignore'], env: gitEnvironment() });
    const onAbort = (): void => {
      child.kill('SIGKILL');
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    let current: string | null = null;
    let lines: string[] = [];
    const flush = (): void => {
      if (current) each(current, lines.join('\n'));
      lines = [];
    };
    const reader = createInterface({ input: child.stdout, crlfDelay: Infinity });
    reader.on('line', (line) => {
      if (line.startsWith('\0')) {
        flush();
        const hash = line.slice(1).trim();
        current = wanted.has(hash) ? hash : null;
      } else if (current && (line.startsWith('diff --git ') || line.startsWith('--- ') || line.startsWith('@@ '))) {
        lines.push(line);
      }
    });
    child.on('error', reject);
    child.on('close', (code) => {
      signal?.removeEventListener('abort', onAbort);
      if (signal?.aborted) {
        reject(abortError(signal));
        return;
      }
      flush();
      if (code === 0) resolve();
      else reject(new Error(`git log -p exited with ${code}`));
    });
  });
}

/** Line numbers (any order) as `[start, count]` ranges. */
function toRanges(lines: readonly number[]): [number, number][] {
  const sorted = [...new Set(lines)].sort((a, b) => a - b);
  const ranges: [number, number][] = [];
  for (const line of sorted) {
    const last = ranges.at(-1);
    if (last && last[0] + last[1] === line) last[1]++;
    else ranges.push([line, 1]);
  }
  return ranges;
}
