/** Where a block of added lines lines up with the file before it: runs of lines equal in both, in order. */
export interface AlignedRun {
  /** The run's first line in the block. */
  readonly start: number;
  /** Its first line in the old file. */
  readonly at: number;
  readonly length: number;
}

/** Above this many cells (block lines times candidate old lines) the alignment is not computed. */
export const MAX_ALIGNMENT_CELLS = 2_000_000;

/** A score's unit per matched line; what is left below it counts lines that follow a matched line in both. */
const LINE = 65_536;

/**
 * The runs an alignment of `block` against `old` (line texts as numbers) is made of, as `git blame
 * -M` lines a block up against the parent's file: one alignment of the whole block, in order, so a
 * line common everywhere (a blank line, a brace) matches where the alignment puts it, not wherever
 * it would extend a run. The alignment matches as many lines as can be matched in order and, of
 * the alignments that do, keeps most lines next to each other in both (a diff's snakes). Only old
 * lines whose text the block holds take part (the others cannot match). Null when the block is
 * too large to line up this way (MAX_ALIGNMENT_CELLS).
 */
export function alignedRuns(block: readonly number[], old: readonly number[]): AlignedRun[] | null {
  const wanted = new Set(block);
  const candidates: number[] = [];
  for (let at = 0; at < old.length; at++) if (wanted.has(old[at]!)) candidates.push(at);
  const m = block.length;
  const n = candidates.length;
  if (m === 0 || n === 0) return [];
  if (m * n > MAX_ALIGNMENT_CELLS || m >= LINE) return null;
  const width = n + 1;
  const matches = (i: number, j: number): boolean => old[candidates[j]!] === block[i];
  /** Whether matching (i, j) and then (i + 1, j + 1) keeps the two lines together in the old file too. */
  const follows = (i: number, j: number): boolean =>
    i + 1 < m && j + 1 < n && candidates[j + 1] === candidates[j]! + 1 && matches(i + 1, j + 1);
  // best: the best score of block[i..] against the candidates from j; matched: the same with (i, j)
  // matched, 0 when they differ (a match scores LINE or more). Scores stay below 2^32 (m < LINE).
  const best = new Uint32Array((m + 1) * width);
  const matched = new Uint32Array((m + 1) * width);
  for (let i = m - 1; i >= 0; i--) {
    for (let j = n - 1; j >= 0; j--) {
      const cell = i * width + j;
      if (matches(i, j)) {
        const onward = best[cell + width + 1]!;
        const together = follows(i, j) ? matched[cell + width + 1]! + 1 : 0;
        matched[cell] = LINE + Math.max(onward, together);
      } else matched[cell] = 0;
      best[cell] = Math.max(matched[cell]!, best[cell + 1]!, best[cell + width]!);
    }
  }
  const runs: AlignedRun[] = [];
  let current: { start: number; at: number; length: number } | null = null;
  let mustMatch = false;
  for (let i = 0, j = 0; i < m && j < n;) {
    const cell = i * width + j;
    if (mustMatch || (matched[cell]! > 0 && matched[cell] === best[cell])) {
      const at = candidates[j]!;
      if (current && current.start + current.length === i && current.at + current.length === at) current.length++;
      else {
        if (current) runs.push(current);
        current = { start: i, at, length: 1 };
      }
      // Whether the best score went on with the next line matched alongside.
      mustMatch = follows(i, j) && matched[cell] === LINE + matched[cell + width + 1]! + 1;
      i++;
      j++;
    } else if (best[cell + 1] === best[cell]) j++;
    else i++;
  }
  if (current) runs.push(current);
  return runs;
}
