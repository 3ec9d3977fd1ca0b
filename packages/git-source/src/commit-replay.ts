import { itemAt } from '@cadence-detect/errors';
import { copySite } from './copy-sites.js';
import type { LedgerOptions } from './history-ledger.js';
import { assistantSlot, SLOTS, writerIndex, type LedgerBook, type PendingCommit } from './ledger-book.js';
import { copiesWithinFile, countAdded, lineHash, moveKey } from './ledger-texts.js';
import { UNKNOWN_ORIGIN as UNKNOWN, type FileDiff } from './line-replay.js';
import {
  followedSources,
  keepTags,
  remove,
  RUN_SPAN,
  takeFile,
  type EditedFile,
  type FileState,
} from './ledger-state.js';

/** What one commit's files add up to before its moves are settled: its deletions and the files it edits. */
interface CommitEdit {
  /** Deleted lines by their text (blanks aside): where a moved line may come from. */
  readonly removedText: Map<string, number[]>;
  readonly deletions: { value: number; key: string | null }[];
  readonly pending: EditedFile[];
}

/** A file's lines after the commit's hunks: writers, copy tags, texts (where known) and the added lines. */
interface RewrittenFile {
  readonly out: number[];
  /** null while every line's tag is 0 (most files hold no copy): made when a copy is found. */
  tags: number[] | null;
  readonly texts: number[] | null;
  readonly added: { at: number; key: string | null; value: number }[];
  /** Of the old file's lines, those this commit deletes: their deletion's index. */
  readonly deletedAt: Map<number, number>;
}

/**
 * A commit that is no merge, applied to its first parent's ledger: deleted lines are its rework's
 * (handed to `onDeletion`), added lines its own, except copies within a file and lines it moved
 * from another file (their writers kept, their deletion no rework).
 */
export function replayPlain(book: LedgerBook, commit: PendingCommit, index: number, options: LedgerOptions): FileState {
  const state = book.stateOf(commit.parents[0]);
  const edit: CommitEdit = { removedText: new Map(), deletions: [], pending: [] };
  // A file blame follows to another's source reads that source as it was before the commit.
  const sources = followedSources(state, commit.followed, book.owners);
  for (const original of commit.diffs) {
    const followed = sources.of(original);
    const diff = followed ?? original;
    const { to, old, oldTexts, oldTags } = followed ? sources.take(followed) : takeFile(state, diff);
    if (diff.binary || !to || !options.follows(to) || old === undefined) {
      // Not followed (binary, excluded, or not followed until now): its lines have no known writer.
      if (to) remove(state, to);
      if (old === undefined || diff.binary) continue;
    }
    const ranges = to ? options.recorded?.(commit.hash, to) : undefined;
    const ownValue = (line: number): number => {
      const range = ranges?.find((r) => r.start <= line && line <= r.end);
      return index * SLOTS + (range ? book.slot(range.assistant) : 0);
    };
    // The source's lines a followed file leaves out live on where `git log` took the source: no deletion.
    const rewritten = rewriteLines(diff, { old, oldTexts, oldTags }, followed !== undefined, edit, ownValue);
    if (rewritten.texts && oldTexts) findCopies(book, diff, { old, oldTexts, oldTags }, rewritten, index);
    if (to && options.follows(to))
      edit.pending.push({
        to,
        old,
        oldTexts,
        out: rewritten.out,
        texts: rewritten.texts,
        tags: rewritten.tags,
        added: rewritten.added,
      });
  }
  settleMoves(book, state, edit);
  if (options.onDeletion) reportDeletions(book, edit.deletions, index, options.onDeletion);
  book.movedDeletions.clear();
  return state;
}

/** The file's lines through the commit's hunks: kept lines carried over, deleted ones noted in `edit`, added ones left UNKNOWN to settle. */
function rewriteLines(
  diff: FileDiff,
  before: { readonly old: number[]; readonly oldTexts: number[] | undefined; readonly oldTags: number[] | undefined },
  skipDeletions: boolean,
  edit: CommitEdit,
  ownValue: (line: number) => number,
): RewrittenFile {
  const { old, oldTexts, oldTags } = before;
  // The new arrays are built from runs (kept ranges sliced, added lines) joined once at the end:
  // slicing and concatenating copy in bulk, where pushing line by line cost most of a whole
  // history's replay (every edit copies its file's three arrays).
  const outRuns: number[][] = [];
  const tagRuns: number[][] | null = oldTags ? [] : null;
  // Each line's text as a number (blanks aside), kept beside its writer: copies within a file are found by it.
  const textRuns: number[][] | null = oldTexts && (diff.added?.length ?? 0) === countAdded(diff) ? [] : null;
  const added: RewrittenFile['added'] = [];
  const deletedAt = new Map<number, number>();
  let length = 0;
  let position = 0;
  let removedAt = 0;
  let addedAt = 0;
  const keep = (end: number): void => {
    const stop = Math.min(end, old.length);
    if (position >= stop) return;
    outRuns.push(old.slice(position, stop));
    tagRuns?.push(rangeOf(oldTags!, position, stop));
    textRuns?.push(rangeOf(oldTexts!, position, stop));
    length += stop - position;
    position = stop;
  };
  for (const [a, b, c, d] of diff.hunks) {
    keep(b === 0 ? a : a - 1);
    for (let i = 0; i < b; i++, position++) {
      const value = old[position] ?? UNKNOWN;
      const key = moveKey(diff.removed?.[removedAt++]);
      if (skipDeletions) continue;
      edit.deletions.push({ value, key });
      deletedAt.set(position, edit.deletions.length - 1);
      if (key !== null && value !== UNKNOWN) {
        const list = edit.removedText.get(key) ?? [];
        list.push(edit.deletions.length - 1);
        edit.removedText.set(key, list);
      }
    }
    if (d === 0) continue;
    const outRun: number[] = [];
    const textRun: number[] = [];
    for (let i = 0; i < d; i++) {
      const text = diff.added?.[addedAt++];
      added.push({ at: length + i, key: moveKey(text), value: ownValue(c + i) });
      outRun.push(UNKNOWN);
      if (textRuns) textRun.push(lineHash(text ?? ''));
    }
    outRuns.push(outRun);
    tagRuns?.push(zeros(d));
    textRuns?.push(textRun);
    length += d;
  }
  keep(old.length);
  const texts = textRuns && joined(textRuns);
  return { out: joined(outRuns), tags: tagRuns && joined(tagRuns), texts, added, deletedAt };
}

/** `values[from, to)`, zeros past its end (as reading `values[i] ?? 0` gives). */
function rangeOf(values: readonly number[], from: number, to: number): number[] {
  if (values.length >= to) return values.slice(from, to);
  const run: number[] = [];
  for (let i = from; i < to; i++) run.push(values[i] ?? 0);
  return run;
}

/** Zeros to slice from (a packed array: its slices are packed too), kept no longer than ZEROS_KEPT. */
const ZEROS: number[] = [];
const ZEROS_KEPT = 1 << 16;

function zeros(length: number): number[] {
  // A file longer than what is kept (rare) gets its zeros made: the process never holds a huge file's worth.
  if (length > ZEROS_KEPT) return new Array<number>(length).fill(0);
  while (ZEROS.length < length) ZEROS.push(0);
  return ZEROS.slice(0, length);
}

/** The runs as one array; concat takes a bounded number of arguments at a time. */
function joined(runs: readonly number[][]): number[] {
  if (runs.length === 1) return runs[0]!;
  let all: number[] = [];
  for (let at = 0; at < runs.length; at += 4096) all = all.concat(...runs.slice(at, at + 4096));
  return all;
}

/** Runs of added lines the file already held (copies and moves within it, as `git blame -M` finds them): their writers kept, a copy site each. */
function findCopies(
  book: LedgerBook,
  diff: FileDiff,
  before: { readonly old: number[]; readonly oldTexts: number[]; readonly oldTags: number[] | undefined },
  rewritten: RewrittenFile,
  index: number,
): void {
  const { old, oldTexts, oldTags } = before;
  const { out, texts, added, deletedAt } = rewritten;
  const ownAt = new Map(added.map((line) => [line.at, line.value]));
  book.moved += copiesWithinFile(
    diff,
    old,
    oldTexts,
    out,
    texts!,
    (oldIndex) => {
      const deletion = deletedAt.get(oldIndex);
      if (deletion !== undefined) book.movedDeletions.add(deletion);
    },
    (at, block, copied, found) => {
      const site = book.sites.length;
      const own = block.texts.map((_, k) => ownAt.get(at + k) ?? index * SLOTS);
      book.sites.push(copySite(block, own, copied, { writers: old, texts: oldTexts, tags: oldTags }, found));
      const tags = (rewritten.tags ??= zeros(out.length));
      for (let k = 0; k < block.texts.length; k++) tags[at + k] = site * RUN_SPAN + k;
    },
  );
}

/**
 * Moves: an added line whose text the commit deleted once and added once keeps that line's writer
 * (a repeated line, a lock file's `source = …`, could come from any of its copies); every other
 * added line is the commit's own. Then the edited files go into the ledger.
 */
function settleMoves(book: LedgerBook, state: FileState, edit: CommitEdit): void {
  const addedCount = new Map<string, number>();
  for (const file of edit.pending)
    for (const line of file.added)
      if (line.key !== null && file.out[line.at] === UNKNOWN)
        addedCount.set(line.key, (addedCount.get(line.key) ?? 0) + 1);
  for (const file of edit.pending) {
    for (const line of file.added) {
      if (file.out[line.at] !== UNKNOWN) continue; // a copy within the file, found above
      const from = line.key === null ? undefined : edit.removedText.get(line.key);
      const available = from?.filter((at) => !book.movedDeletions.has(at));
      const unique = available?.length === 1 && from!.length === 1 && addedCount.get(line.key!) === 1;
      const taken = unique ? available[0] : undefined;
      if (taken !== undefined) {
        book.movedDeletions.add(taken);
        file.out[line.at] = itemAt(edit.deletions, taken).value;
        book.moved++;
      } else file.out[line.at] = line.value;
    }
    state.origins.set(file.to, book.owners.reuse(file.old, file.out));
    keepTags(state, file.to, file.tags ?? undefined);
    if (file.texts) state.texts.set(file.to, book.owners.reuse(file.oldTexts, file.texts));
    else state.texts.delete(file.to);
  }
}

/** The commit's deletions that are no move, each with the line's writer: what rework is charged from. */
function reportDeletions(
  book: LedgerBook,
  deletions: CommitEdit['deletions'],
  index: number,
  onDeletion: NonNullable<LedgerOptions['onDeletion']>,
): void {
  deletions.forEach((deletion, at) => {
    if (book.movedDeletions.has(at)) return;
    onDeletion({
      by: index,
      writer: deletion.value === UNKNOWN ? null : writerIndex(deletion.value),
      marked: deletion.value !== UNKNOWN && assistantSlot(deletion.value) > 0,
    });
  });
}
