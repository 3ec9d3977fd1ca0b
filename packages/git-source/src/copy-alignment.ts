import { diffLines } from './line-diff.js';

/** Where a block of added lines lines up with the file before it: runs of lines equal in both, in order. */
export interface AlignedRun {
  /** The run's first line in the block. */
  readonly start: number;
  /** Its first line in the old file. */
  readonly at: number;
  readonly length: number;
}

/**
 * The runs an alignment of `block` against `old` (line texts as numbers) is made of, as `git blame
 * -M` lines a block up against the parent's file: git's diff of the whole old file and the block
 * (line-diff.ts), whose unchanged stretches are the runs. A line common everywhere (a blank line,
 * a brace) matches where that diff puts it, not wherever it would extend a run. `inOld`: how many
 * times the old file holds each of the block's texts, when the caller knows.
 */
export function alignedRuns(
  block: readonly number[],
  old: ArrayLike<number>,
  inOld?: ReadonlyMap<number, number>,
): AlignedRun[] {
  const runs: AlignedRun[] = [];
  let current: { start: number; at: number; length: number } | null = null;
  for (const [at, start] of diffLines(old, block, inOld)) {
    if (current && current.start + current.length === start && current.at + current.length === at) current.length++;
    else {
      if (current) runs.push(current);
      current = { start, at, length: 1 };
    }
  }
  if (current) runs.push(current);
  return runs;
}
