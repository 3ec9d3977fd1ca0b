import { itemAt } from '@cadence-detect/errors';
import type { CommitRecord } from '@cadence-detect/plugin-sdk';
import { blameFile } from './head-lines.js';
import { markedLines, NO_LINE_RECORDS, type LineRecords } from './line-records.js';
import { LINE_DIFF_ARGS, replayFirstParent, streamCommitDiffs } from './line-replay.js';
import type { GitBounds } from './git-process.js';

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
  /** Line-level records: the reworked lines they name as an assistant's are counted apart (`marked`). */
  readonly records?: LineRecords;
  /** What each git diff may cost (the blob cap of `limits.max_diff_blob_mb`, the memory ceiling); DEFAULT_GIT_BOUNDS when absent. */
  readonly bounds?: GitBounds;
}

export interface ReworkedLines {
  /** Reworked lines by the commit that wrote them. */
  readonly lines: Map<string, number>;
  /** Of those, the lines the writer's line-level record names as an assistant's (only commits with a record). */
  readonly marked: Map<string, number>;
}

/**
 * Lines reworked within the window: a line deleted or rewritten (whitespace ignored, renames
 * followed) by a commit whose author date is at most the window after the author date of the
 * commit that wrote it charges that writer one reworked line; a line deleted and later restored
 * was still reworked. With `replayFrom`, the first-parent history is replayed (line-replay.ts) and
 * only lines that came in through a merge are blamed; otherwise each deleting commit's parent is
 * blamed over exactly the lines it deletes (`git blame -w -M -L … --since`). A path no other commit
 * touched within the window cannot hold such lines and is never blamed. Rework inside a side
 * branch before its merge is not seen by the replay.
 */
export async function readReworkedLines(
  dir: string,
  commits: readonly CommitRecord[],
  options: ReworkOptions,
): Promise<ReworkedLines> {
  const records = options.records ?? NO_LINE_RECORDS;
  const window = options.windowSeconds ?? REWORK_WINDOW_SECONDS;
  const index = reworkIndex(commits, window);
  const tally = reworkTally(window);
  const work = options.replayFrom
    ? await replayedWork(dir, options.replayFrom, options, index, tally, records)
    : await deletedWork(dir, options, index);
  await blameWork(dir, work, { options, index, tally, records, window });
  return { lines: tally.reworked, marked: tally.marked };
}

/** Lines to blame in a deleting commit's first parent: by commit, by path, the parent's line numbers. */
interface BlameWork {
  readonly commit: CommitRecord;
  readonly path: string;
  readonly ranges: [number, number][];
}

interface ReworkIndex {
  readonly byHash: ReadonlyMap<string, CommitRecord>;
  /** Commits that delete lines with another commit authored within the window before them. */
  readonly candidates: ReadonlySet<string>;
  /** Whether another commit touched `path` within the window before `commit`. */
  recentlyTouched(commit: CommitRecord, path: string): boolean;
}

function reworkIndex(commits: readonly CommitRecord[], window: number): ReworkIndex {
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
      if (itemAt(times, mid) < time - window) low = mid + 1;
      else high = mid;
    }
    let count = 0;
    for (let i = low; i < times.length && itemAt(times, i) <= time; i++) if (++count > 1) return true;
    return false;
  };
  const candidates = new Set(
    commits
      .filter((c) => c.parents.length >= 1 && c.deletions + c.excludedDeletions > 0 && anyWithin(c.authorTime))
      .map((c) => c.hash),
  );
  return {
    byHash,
    candidates,
    recentlyTouched: (commit, path) =>
      (touched.get(path) ?? []).some(
        (other) =>
          other !== commit && other.authorTime >= commit.authorTime - window && other.authorTime <= commit.authorTime,
      ),
  };
}

interface ReworkTally {
  readonly reworked: Map<string, number>;
  readonly marked: Map<string, number>;
  /** Charges the writer `lines` reworked lines (`markedLines` of them its record's) when the deleter came within the window after it. */
  charge(writer: CommitRecord | undefined, deleter: CommitRecord, lines: number, markedLines: number): void;
}

function reworkTally(window: number): ReworkTally {
  const reworked = new Map<string, number>();
  const marked = new Map<string, number>();
  return {
    reworked,
    marked,
    charge(writer, deleter, lines, markedLines) {
      if (!writer || deleter.authorTime - writer.authorTime > window || writer.authorTime > deleter.authorTime) return;
      reworked.set(writer.hash, (reworked.get(writer.hash) ?? 0) + lines);
      if (markedLines > 0) marked.set(writer.hash, (marked.get(writer.hash) ?? 0) + markedLines);
    },
  };
}

/**
 * The first-parent history replayed from `head`: a deleted line whose writer the replay knows is
 * charged at once; lines that came in through a merge (unknown origin) are left to blame.
 */
async function replayedWork(
  dir: string,
  head: string,
  options: ReworkOptions,
  index: ReworkIndex,
  tally: ReworkTally,
  records: LineRecords,
): Promise<BlameWork[]> {
  const unknown = new Map<string, Map<string, number[]>>();
  await replayFirstParent(
    dir,
    head,
    (path) => !options.isExcluded(path),
    (deletion) => {
      if (options.isExcluded(deletion.path)) return;
      const deleter = index.byHash.get(deletion.by);
      if (!deleter) return;
      if (deletion.origin !== null) {
        tally.charge(index.byHash.get(deletion.origin), deleter, 1, deletion.marked ? 1 : 0);
        return;
      }
      if (!index.candidates.has(deleter.hash) || !index.recentlyTouched(deleter, deletion.path)) return;
      const byPath = unknown.get(deleter.hash) ?? new Map<string, number[]>();
      const lines = byPath.get(deletion.path) ?? [];
      lines.push(deletion.line);
      byPath.set(deletion.path, lines);
      unknown.set(deleter.hash, byPath);
    },
    options.signal,
    records.byCommit.size > 0 ? (commit, path) => records.byCommit.get(commit)?.get(path) : undefined,
    options.bounds,
  );
  const work: BlameWork[] = [];
  for (const [hash, paths] of unknown) {
    const commit = index.byHash.get(hash);
    if (commit) for (const [path, lines] of paths) work.push({ commit, path, ranges: toRanges(lines) });
  }
  return work;
}

/** What each candidate deletes, from ONE `git log -p -U0 -w -M` over just those commits (a diff per commit would be a process each). */
async function deletedWork(dir: string, options: ReworkOptions, index: ReworkIndex): Promise<BlameWork[]> {
  const work: BlameWork[] = [];
  const single = [...index.candidates].filter((hash) => index.byHash.get(hash)?.isMerge === false);
  if (single.length === 0) return work;
  let current: CommitRecord | undefined;
  await streamCommitDiffs(
    dir,
    ['log', '--no-walk=unsorted', '--stdin', ...LINE_DIFF_ARGS],
    {
      commit: (hash) => {
        current = index.byHash.get(hash);
      },
      file: (diff) => {
        const path = diff.oldPath ?? diff.renameFrom;
        if (!current || !path || diff.binary || options.isExcluded(path) || !index.recentlyTouched(current, path))
          return;
        const ranges = diff.hunks
          .filter(([, count]) => count > 0)
          .map(([start, count]): [number, number] => [start, count]);
        if (ranges.length > 0) work.push({ commit: current, path, ranges });
      },
    },
    { signal: options.signal, input: `${single.join('\n')}\n`, bounds: options.bounds },
  );
  return work;
}

/** Blames each deleting commit's first parent over the lines it deletes, charging their writers. */
async function blameWork(
  dir: string,
  work: BlameWork[],
  by: {
    readonly options: ReworkOptions;
    readonly index: ReworkIndex;
    readonly tally: ReworkTally;
    readonly records: LineRecords;
    readonly window: number;
  },
): Promise<void> {
  const { options, index, tally, records, window } = by;
  const worker = async (): Promise<void> => {
    for (let next = work.shift(); next; next = work.shift()) {
      const { commit, path, ranges } = next;
      const parent = itemAt(commit.parents, 0);
      // Commits older than the window (by committer date, never earlier than the author date) are not walked.
      const blamed = await blameFile(dir, parent, path, options.signal, ranges, commit.authorTime - window).catch(
        () => null,
      );
      if (!blamed) continue;
      for (const group of blamed.groups) {
        if (blamed.boundary.has(group.commit)) continue;
        tally.charge(
          index.byHash.get(group.commit),
          commit,
          group.count,
          markedLines(records, group.commit, group.path, group.line, group.count)?.lines ?? 0,
        );
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, options.concurrency ?? 2) }, () => worker()));
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
