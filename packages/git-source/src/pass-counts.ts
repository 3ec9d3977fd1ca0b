import type { FileDiff } from './line-replay.js';
import { itemAt } from '@cadence-detect/errors';
import { stringInterner } from './own-string.js';

/**
 * Each commit's files as `git log --numstat` counts them, taken from the one line pass's own
 * `git log -p` (read without `-w`, so blank-only changes count as numstat counts them): the history
 * read of a whole history then needs no second line diff of every blob. `filesOf(hash)`: for a
 * commit that is no merge (numstat shows none for a merge), flat: path, added, deleted, ... with -1
 * for a binary file (numstat's `-`), files in the diff's order (numstat's); null for a commit whose
 * patch does not say what numstat prints (below), which the history read counts with numstat;
 * undefined for a commit the pass did not list.
 */
export interface CommitFileCounts {
  filesOf(hash: string): (string | number)[] | null | undefined;
}

/** What the history read waits on when the one pass reads the same history beside it. */
export interface PassFiles {
  /**
   * Whether the pass diffs every commit of the history (no kept pass carried forward): known as soon
   * as the pass has listed its commits, before it replays them. False: the history read counts its
   * own (`git log --numstat`).
   */
  readonly replaysAll: Promise<boolean>;
  /**
   * The counts, once the pass has replayed; null when it failed (numstat then). Taken once: the
   * pass keeps no hold on them, so they go as soon as the history read has used them.
   */
  takeFiles(): Promise<CommitFileCounts | null>;
}

/**
 * Collects the counts as the pass reads its diffs. A patch does not say everything numstat does:
 * a file with no hunk and no `Binary files` line (a rename or a mode change with the content as it
 * was) may be binary, which numstat prints as `-` and the patch does not say; a type change (a file
 * becoming a link) is two patches and one numstat entry; a path git quoted with no ---/+++ lines
 * has no name here. Such a commit is left to numstat (null).
 */
/** The counts kept with a pass (ledger-cache.ts) and carried forward with it: flat, two numbers a file. */
export interface KeptCounts {
  /** Each counted commit (merges aside) and where its files start in `paths` (-1: left to numstat). */
  readonly hashes: readonly string[];
  readonly starts: readonly number[];
  /** Each file's path, and its added and deleted lines at twice its index. */
  readonly paths: readonly string[];
  readonly counts: ArrayLike<number>;
}

export class FileCountCollector {
  /** Per commit read (merges aside), in the pass's order: its hash and where its files start (-1: left to numstat). */
  private readonly hashes: string[] = [];
  private readonly starts: number[] = [];
  /** Every counted file's path, and its added and deleted lines at twice its index: flat, a few bytes a file. */
  private readonly paths: string[] = [];
  private counts = new Int32Array(4096);
  private counting = false;
  private readonly seen = new Set<string>();
  /** A path once for the whole history (each diff's is a copy of its own). */
  private readonly intern = stringInterner();

  /** Carried forward from a kept pass's counts: the commits since are added after them. */
  constructor(kept?: KeptCounts) {
    if (!kept) return;
    for (const hash of kept.hashes) this.hashes.push(hash);
    for (const start of kept.starts) this.starts.push(start);
    for (const path of kept.paths) this.paths.push(this.intern(path));
    this.counts = new Int32Array(Math.max(4096, 2 * kept.counts.length));
    this.counts.set(kept.counts);
  }

  /** The counts as they are now, to keep with the pass. */
  kept(): KeptCounts {
    return {
      hashes: this.hashes,
      starts: this.starts,
      paths: this.paths,
      counts: this.counts.subarray(0, 2 * this.paths.length),
    };
  }

  /** A new commit's diffs follow; a merge's are not counted (numstat prints none for a merge). */
  commit(hash: string, isMerge: boolean): void {
    this.counting = !isMerge;
    this.seen.clear();
    if (isMerge) return;
    this.hashes.push(hash);
    this.starts.push(this.paths.length);
  }

  /** One file's diff, as read (before ignoringBlankChanges). */
  file(diff: FileDiff): void {
    if (!this.counting) return;
    const named = diff.renameTo ?? diff.newPath ?? diff.oldPath;
    const unsaid = !diff.binary && diff.hunks.length === 0 && !diff.emptyBlob;
    if (named === null || unsaid || this.seen.has(named)) {
      // Left to numstat: this commit's files so far are taken back.
      const last = this.starts.length - 1;
      this.paths.length = itemAt(this.starts, last);
      this.starts[last] = -1;
      this.counting = false;
      return;
    }
    this.seen.add(named);
    let added = -1;
    let deleted = -1;
    if (!diff.binary) {
      added = 0;
      deleted = 0;
      for (const [, b, , d] of diff.hunks) {
        deleted += b;
        added += d;
      }
    }
    const at = this.paths.length;
    this.paths.push(this.intern(named));
    if (2 * at + 2 > this.counts.length) {
      const grown = new Int32Array(this.counts.length * 2);
      grown.set(this.counts);
      this.counts = grown;
    }
    this.counts[2 * at] = added;
    this.counts[2 * at + 1] = deleted;
  }

  result(): CommitFileCounts {
    const { hashes, starts, paths, counts } = this;
    const index = new Map(hashes.map((hash, i) => [hash, i]));
    return {
      filesOf(hash) {
        const i = index.get(hash);
        if (i === undefined) return undefined;
        const start = itemAt(starts, i);
        if (start < 0) return null;
        // Its files end where the next counted commit's start (commits left to numstat hold none).
        let next = paths.length;
        for (let j = i + 1; j < starts.length && next === paths.length; j++)
          if (itemAt(starts, j) >= 0) next = itemAt(starts, j);
        const files: (string | number)[] = [];
        for (let k = start; k < next; k++)
          files.push(itemAt(paths, k), itemAt(counts, 2 * k), itemAt(counts, 2 * k + 1));
        return files;
      },
    };
  }
}
