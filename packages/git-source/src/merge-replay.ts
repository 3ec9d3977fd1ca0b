import { itemAt } from '@cadence-detect/errors';
import type { LedgerOptions } from './history-ledger.js';
import { SLOTS, type LedgerBook, type PendingCommit } from './ledger-book.js';
import { applyKeeping } from './ledger-merges.js';
import { applyTexts, countAdded } from './ledger-texts.js';
import { UNKNOWN_ORIGIN as UNKNOWN, type FileDiff } from './line-replay.js';
import { emptyState, keepTags, remove, tagsOf, takeFile, type FileState } from './ledger-state.js';

/**
 * A merge: each line from the first parent where its diff against the first parent leaves the line
 * as it was, else from the parent whose diff leaves it (the side branch's commits wrote it), else
 * the merge's own (a conflict's resolution). `againstSide`: the merge's diff against its second
 * parent, by the merge's path (none: the merge is the side's tree).
 */
export function replayMerge(
  book: LedgerBook,
  commit: PendingCommit,
  index: number,
  againstSide: ReadonlyMap<string, FileDiff>,
  options: LedgerOptions,
): FileState {
  // The second parent's ledger, read before the first one is taken over (a third parent's lines are the merge's).
  const side = book.states.get(itemAt(commit.parents, 1)) ?? emptyState();
  const state = book.stateOf(commit.parents[0]);
  for (const parent of commit.parents.slice(1)) book.stateOf(parent);
  for (const diff of commit.diffs) mergeFile(book, { state, side, againstSide, mine: index * SLOTS }, diff, options);
  return state;
}

interface MergeSides {
  readonly state: FileState;
  readonly side: FileState;
  readonly againstSide: ReadonlyMap<string, FileDiff>;
  /** The merge's own value: a line neither parent leaves as it was. */
  readonly mine: number;
}

function mergeFile(book: LedgerBook, sides: MergeSides, diff: FileDiff, options: LedgerOptions): void {
  const { state, side } = sides;
  const { from, to, old, oldTexts, oldTags } = takeFile(state, diff);
  if (!to) return;
  if (diff.binary || !options.follows(to)) {
    remove(state, to);
    return;
  }
  const sideDiff = sides.againstSide.get(to);
  const sideFrom = sideDiff ? (sideDiff.oldPath ?? sideDiff.renameFrom) : to;
  const sideOld = sideFrom ? side.origins.get(sideFrom) : undefined;
  // The merge's file is the side's, blob for blob: the whole of it is the side's (as blame passes it).
  if (!sideDiff && sideOld !== undefined) {
    takeSideFile(book, state, side, to, sideFrom!, sideOld);
    return;
  }
  if (from && old === undefined) {
    // A file the first parent had but did not follow (binary or excluded then): not followed now.
    remove(state, to);
    return;
  }
  const { fromFirst, tagsFirst } = combineSides(
    { old: old ?? null, oldTags, diff },
    { old: sideOld, tags: tagsOf(side, sideFrom ?? undefined, sideOld?.length ?? 0), diff: sideDiff },
  );
  keepTags(state, to, tagsFirst);
  state.origins.set(
    to,
    fromFirst.map((value) => (value === UNKNOWN ? sides.mine : value)),
  );
  const texts = oldTexts && (diff.added?.length ?? 0) === countAdded(diff) ? applyTexts(oldTexts, diff) : null;
  if (texts) state.texts.set(to, texts);
  else state.texts.delete(to);
}

/**
 * Each line's writer through the first parent's diff, else through the side's (a line the first
 * parent's diff does not leave as it was, which the side's does), else UNKNOWN (the merge's own);
 * the copy tags along with them.
 */
function combineSides(
  first: { readonly old: number[] | null; readonly oldTags: number[] | undefined; readonly diff: FileDiff },
  side: { readonly old: number[] | undefined; readonly tags: number[]; readonly diff: FileDiff | undefined },
): { fromFirst: number[]; tagsFirst: number[] } {
  const fromFirst = applyKeeping(first.old, first.diff);
  const fromSide = side.old === undefined ? null : side.diff ? applyKeeping(side.old, side.diff) : side.old;
  const tagsFirst = applyKeeping(first.oldTags ?? new Array<number>(first.old?.length ?? 0).fill(0), first.diff).map(
    (tag) => (tag === UNKNOWN ? 0 : tag),
  );
  const tagsSide = side.diff ? applyKeeping(side.tags, side.diff) : side.tags;
  if (fromSide && fromSide.length === fromFirst.length)
    for (let i = 0; i < fromFirst.length; i++)
      if (fromFirst[i] === UNKNOWN && fromSide[i] !== UNKNOWN) {
        fromFirst[i] = fromSide[i]!;
        tagsFirst[i] = Math.max(0, tagsSide[i] ?? 0);
      }
  return { fromFirst, tagsFirst };
}

/** The side's file as it is (its arrays shared with the side's ledger). */
function takeSideFile(
  book: LedgerBook,
  state: FileState,
  side: FileState,
  to: string,
  sideFrom: string,
  sideOld: number[],
): void {
  for (const values of [sideOld, side.tags.get(sideFrom), side.texts.get(sideFrom)]) book.owners.shareArray(values);
  state.origins.set(to, sideOld);
  keepTags(state, to, side.tags.get(sideFrom));
  const sideTexts = side.texts.get(sideFrom);
  if (sideTexts) state.texts.set(to, sideTexts);
  else state.texts.delete(to);
}
