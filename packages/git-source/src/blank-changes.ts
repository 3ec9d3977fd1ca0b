import { itemAt } from '@cadence-detect/errors';
import { lineHash } from './ledger-texts.js';
import { diffLines } from './line-diff.js';
import type { FileDiff } from './line-replay.js';

/**
 * A diff read without `-w`, made into the one `-w` gives: within each hunk, removed and added lines
 * that differ only in blanks (spaces, tabs, carriage returns, form feeds: what `-w` ignores) are
 * paired as git's diff pairs lines (line-diff.ts) and left out as unchanged lines; the rest stay, in
 * hunks split around the pairs. A hunk of blank changes alone disappears.
 *
 * Why: the one pass's `git log -p` reads each commit's diff once for two uses. The verdicts need
 * numstat's counts, which count blank-only changes (the commit model was fitted on them); the
 * ledger must not make a re-indenting commit the writer of the lines it re-indented (`git blame -w`
 * does not). Reading the log without `-w` gives the counts, and this gives the ledger its diff.
 * Pairing within hunks is not git's whole-file `-w` diff in every case: where a blank-only change
 * lets git line up a file differently, the two can pair other lines (measured in docs/lines.md).
 */
export function ignoringBlankChanges(diff: FileDiff): FileDiff {
  const { removed, added } = diff;
  if (diff.binary || !removed || !added) return diff;
  const hunks: [number, number, number, number][] = [];
  const keptRemoved: string[] = [];
  const keptAdded: string[] = [];
  let changed = false;
  let r = 0;
  let s = 0;
  for (const hunk of diff.hunks) {
    const [a, b, c, d] = hunk;
    const pairs = b > 0 && d > 0 ? blankOnlyPairs(removed, r, b, added, s, d) : [];
    if (pairs.length === 0) {
      hunks.push(hunk);
      copyRun(removed, r, b, keptRemoved);
      copyRun(added, s, d, keptAdded);
    } else {
      changed = true;
      // Both sides hold lines here: their 0-based starts are a - 1 and c - 1.
      let i0 = 0;
      let j0 = 0;
      for (const [i, j] of [...pairs, [b, d] as const]) {
        const gone = i - i0;
        const come = j - j0;
        if (gone + come > 0) {
          // With no lines on a side, git names the line before the change (unified diff's -U0 form).
          hunks.push([gone > 0 ? a + i0 : a - 1 + i0, gone, come > 0 ? c + j0 : c - 1 + j0, come]);
          copyRun(removed, r + i0, gone, keptRemoved);
          copyRun(added, s + j0, come, keptAdded);
        }
        i0 = i + 1;
        j0 = j + 1;
      }
    }
    r += b;
    s += d;
  }
  if (!changed) return diff;
  return { ...diff, hunks, removed: keptRemoved, added: keptAdded };
}

/** The lines with blanks taken out (`-w` compares lines so). */
function blankless(text: string): string {
  return text.replace(/[ \t\r\n\v\f]+/g, '');
}

/** Pairs `[removed index, added index]` within one hunk whose lines are equal but for blanks. */
function blankOnlyPairs(
  removed: readonly string[],
  r: number,
  b: number,
  added: readonly string[],
  s: number,
  d: number,
): [number, number][] {
  const before = new Array<number>(b);
  const after = new Array<number>(d);
  for (let i = 0; i < b; i++) before[i] = lineHash(itemAt(removed, r + i));
  for (let j = 0; j < d; j++) after[j] = lineHash(itemAt(added, s + j));
  // Most hunks share no line: no diff to run.
  const held = new Set(before);
  if (!after.some((line) => held.has(line))) return [];
  // Equal hashes are checked against the texts: two different lines never pass as one.
  return diffLines(before, after).filter(
    ([i, j]) => blankless(itemAt(removed, r + i)) === blankless(itemAt(added, s + j)),
  );
}

function copyRun(from: readonly string[], start: number, count: number, to: string[]): void {
  for (let k = 0; k < count; k++) to.push(itemAt(from, start + k));
}
