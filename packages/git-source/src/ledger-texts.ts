import { alignedRuns, type AlignedRun } from './copy-alignment.js';
import { UNKNOWN_ORIGIN as UNKNOWN, type FileDiff } from './line-replay.js';

/** A copied block must hold at least this many non-blank characters (as `git blame -M`'s score). */
const COPY_MIN_CHARS = 20;

/** How many lines a diff adds (what its `added` texts must number to be used). */
export function countAdded(diff: FileDiff): number {
  return diff.hunks.reduce((sum, [, , , d]) => sum + d, 0);
}

/** A line's text as a 32-bit number, blanks aside (FNV-1a): lines are compared as `-w` compares them. */
export function lineHash(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === 32 || code === 9 || code === 13 || code === 10 || code === 11 || code === 12) continue;
    hash ^= code;
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/**
 * A line's ASCII letters and digits: a copied block must hold COPY_MIN_CHARS of them, as blame -M
 * scores a block (`blame_entry_score`: 1 + its alphanumeric bytes, taken when above 20).
 */
function weight(text: string | undefined): number {
  if (text === undefined) return 0;
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if ((code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122)) count++;
  }
  return count;
}

/** What a commit's added block copies: the block's line texts and their letters and digits. */
export interface AddedBlock {
  readonly texts: readonly number[];
  readonly weights: readonly number[];
}

/**
 * The copies within a file `git blame -M` finds in a block of added lines: the block is lined up
 * against the whole file before the commit, in order (alignedRuns); the run of that alignment with
 * most letters and digits is a copy when it holds COPY_MIN_CHARS of them (short lines such as `}`
 * inside it too), and the parts of the block before and after it are lined up again, each on its
 * own. `take` hears each copy: where it starts in the block, where in the old file, how long.
 * Returns whether the old file holds any run of the block strong enough to be a copy (then the
 * block was lined up, copy or not: a part of it standing alone may still be one).
 */
export function findCopies(
  block: AddedBlock,
  oldTexts: ArrayLike<number>,
  take: (start: number, at: number, length: number) => void,
  /** Where the old file holds each of the block's texts (`positionsOf`), when the caller has them. */
  index: ReadonlyMap<number, readonly number[]> = positionsOf(oldTexts, new Set(block.texts)),
): boolean {
  const { texts, weights } = block;
  if (index.size === 0) return false;
  const strengthOf = (start: number, length: number): number => {
    let strength = 0;
    for (let k = 0; k < length; k++) strength += weights[start + k]!;
    return strength;
  };
  /** The longest run the old file holds from the block's line `i` (at most `to`): where, and how long. */
  const longestFrom = (i: number, to: number): { at: number; length: number } => {
    let bestAt = -1;
    let bestLength = 0;
    const found = index.get(texts[i]!) ?? [];
    // The first few places only: a blank line or a brace is everywhere.
    for (let k = 0; k < found.length && k < LONGEST_RUN_STARTS; k++) {
      const at = found[k]!;
      let length = 0;
      while (i + length < to && at + length < oldTexts.length && oldTexts[at + length] === texts[i + length]) length++;
      if (length > bestLength) {
        bestLength = length;
        bestAt = at;
      }
    }
    return { at: bestAt, length: bestLength };
  };
  /** Whether any run of the block the old file holds is strong enough to be a copy (most blocks hold none: no alignment then). */
  const holdsRun = (from: number, to: number): boolean => {
    for (let i = from; i < to; i++) {
      const { at, length } = longestFrom(i, to);
      if (at >= 0 && strengthOf(i, length) >= COPY_MIN_CHARS) return true;
    }
    return false;
  };
  // As blame: the block lined up against the whole old file, its best run taken when strong
  // enough, and the parts before and after it lined up again, each as a block of its own.
  const judge = (from: number, to: number): boolean => {
    if (strengthOf(from, to - from) < COPY_MIN_CHARS || !holdsRun(from, to)) return false;
    const part = texts.slice(from, to);
    const aligned = alignedRuns(part, oldTexts, new Map(part.map((text) => [text, index.get(text)?.length ?? 0])));
    let best: AlignedRun | null = null;
    let bestStrength = 0;
    for (const run of aligned) {
      const strength = strengthOf(from + run.start, run.length);
      // A later run as strong as the best so far replaces it, as blame's split does.
      if (strength > 0 && strength >= bestStrength) {
        best = run;
        bestStrength = strength;
      }
    }
    if (best && bestStrength >= COPY_MIN_CHARS) {
      take(from + best.start, best.at, best.length);
      judge(from, from + best.start);
      judge(from + best.start + best.length, to);
    }
    return true;
  };
  return judge(0, texts.length);
}

/**
 * Copies within a file in a commit's diff (findCopies on each block it adds). `out`'s added lines
 * are UNKNOWN until found; `onCopied` hears each old line a copy came from; `onBlock` hears each
 * block that was lined up (where it starts in `out`, the block, and which of its lines were
 * copied). Returns how many lines were found.
 */
export function copiesWithinFile(
  diff: FileDiff,
  old: readonly number[],
  oldTexts: readonly number[],
  out: number[],
  texts: readonly number[],
  onCopied: (oldIndex: number) => void,
  onBlock?: (at: number, block: AddedBlock, copied: Uint8Array, index: ReadonlyMap<number, readonly number[]>) => void,
): number {
  // Where the old file holds the texts the commit adds: one pass over it, for those texts alone.
  const wanted = new Set<number>();
  for (const [, , c, d] of diff.hunks) for (let i = 0; i < d; i++) wanted.add(texts[c - 1 + i]!);
  const index = positionsOf(oldTexts, wanted);
  if (index.size === 0) return 0;
  let found = 0;
  let addedAt = 0;
  for (const [, , c, d] of diff.hunks) {
    const first = c - 1;
    const block: AddedBlock = {
      texts: texts.slice(first, first + d),
      weights: Array.from({ length: d }, () => weight(diff.added?.[addedAt++])),
    };
    const copied = new Uint8Array(d);
    const couldCopy = findCopies(
      block,
      oldTexts,
      (start, at, length) => {
        for (let k = 0; k < length; k++) {
          const value = old[at + k];
          if (value === undefined || value === UNKNOWN) continue;
          out[first + start + k] = value;
          copied[start + k] = 1;
          onCopied(at + k);
          found++;
        }
      },
      index,
    );
    if (couldCopy) onBlock?.(first, block, copied, index);
  }
  return found;
}

/** How many of a text's places a run is looked for from (LONGEST_RUN_STARTS). */
const LONGEST_RUN_STARTS = 32;

/** Every place a file holds each of the `wanted` texts, in order. */
export function positionsOf(texts: ArrayLike<number>, wanted: ReadonlySet<number>): Map<number, number[]> {
  const index = new Map<number, number[]>();
  for (let at = 0; at < texts.length; at++) {
    const text = texts[at]!;
    if (!wanted.has(text)) continue;
    const list = index.get(text);
    if (list) list.push(at);
    else index.set(text, [at]);
  }
  return index;
}

/** The places that hold any of `block`'s texts, in order, from `index`. */
export function heldBy(block: readonly number[], index: ReadonlyMap<number, readonly number[]>): number[] {
  const held: number[] = [];
  for (const text of new Set(block)) for (const at of index.get(text) ?? []) held.push(at);
  return held.sort((a, b) => a - b);
}

/** A file's line texts with a diff applied (its added lines' texts from the diff). */
export function applyTexts(old: readonly number[], diff: FileDiff): number[] {
  const out: number[] = [];
  let position = 0;
  let addedAt = 0;
  for (const [a, b, , d] of diff.hunks) {
    const start = b === 0 ? a : a - 1;
    for (; position < start && position < old.length; position++) out.push(old[position]!);
    position += b;
    for (let i = 0; i < d; i++) out.push(lineHash(diff.added?.[addedAt++] ?? ''));
  }
  for (; position < old.length; position++) out.push(old[position]!);
  return out;
}

/** Moved lines are matched by their text without blanks, when it has at least this many characters (as `git blame -M`'s score). */
const MOVE_MIN_CHARS = 20;

/** A line's text for matching moves: blanks removed; null when too short to tell one line from another. */
export function moveKey(text: string | undefined): string | null {
  if (text === undefined) return null;
  const key = text.replace(/\s+/g, '');
  return key.length >= MOVE_MIN_CHARS ? key : null;
}
