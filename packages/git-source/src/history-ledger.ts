import { addedLinesOf, type AddedLine } from './added-lines.js';
import { omitted } from './history.js';
import { copySite, judgeCopies, NO_SITE, type CopySite } from './copy-sites.js';
import { filesToFollow, followedDiffs } from './ledger-follows.js';
import { applyKeeping, mergeSideDiffs } from './ledger-merges.js';
import { applyTexts, copiesWithinFile, countAdded, lineHash, moveKey } from './ledger-texts.js';
import { LINE_DIFF_ARGS, streamCommitDiffs, UNKNOWN_ORIGIN as UNKNOWN, type FileDiff } from './line-replay.js';
import {
  emptyState,
  keepTags,
  RUN_SPAN,
  remove,
  tagsOf,
  takeFile,
  ArrayOwnership,
  followedSources,
  type EditedFile,
  type FileState,
  type LedgerDeletion,
} from './ledger-state.js';

/** A line whose writer the ledger cannot know (its file was not followed): the replay's own marker. */
export { UNKNOWN_ORIGIN as UNKNOWN } from './line-replay.js';

/** Slots per commit in a line's value: 0 unmarked, 1… the assistant its writer's record names. */
const SLOTS = 256;

/** Assistant ranges a commit's line-level record names in a file, as numbered in that commit. */
export type AssistantRanges = (
  commit: string,
  path: string,
) => readonly { readonly start: number; readonly end: number; readonly assistant: string | null }[] | undefined;

export type { LedgerDeletion } from './ledger-state.js';

export interface LedgerOptions {
  /** Files whose lines are followed (counted text files: not excluded, not binary). */
  readonly follows: (path: string) => boolean;
  /** Each commit's parents (the history read): a commit's state is kept until its last child used it. */
  readonly parents: ReadonlyMap<string, readonly string[]>;
  readonly recorded?: AssistantRanges;
  /** Lines deleted by commits that are no merge, at their own commit: what rework is charged from. */
  readonly onDeletion?: (deletion: LedgerDeletion) => void;
  /** Files some of whose versions the repository lacks (a partial or damaged clone): left out of the read. */
  readonly omitPaths?: readonly string[];
  /**
   * A ledger kept from an earlier read of an ancestor of `head`: only the commits after its head are
   * replayed. Every one of them must descend from it alone (`resumable` says whether they do).
   */
  readonly resume?: Ledger;
  /** Each commit that is no merge, with its added lines (added-lines.ts), as it is replayed. */
  readonly onCommitAdded?: (hash: string, lines: readonly AddedLine[]) => void;
  /** Told after each replayed commit how many this read has replayed (progress; cheap to call). */
  readonly onReplayed?: (replayed: number) => void;
  readonly signal?: AbortSignal;
}

/** Who wrote each line of each followed file at the head. */
export interface Ledger {
  readonly head: string;
  /** Per file, per line (0-based): `commitIndex * 256 + slot`, or UNKNOWN. */
  readonly files: ReadonlyMap<string, readonly number[]>;
  /** Commit hashes by index. */
  readonly commits: readonly string[];
  /** Assistant names by slot - 1 (an unnamed assistant is null). */
  readonly assistants: readonly (string | null)[];
  /** Lines whose writer came through a move or a copy (the same text elsewhere before the commit). */
  readonly movedLines: number;
  /** Per file, each line's text as a number (blanks aside): what finds copies in the next commits. */
  readonly texts?: ReadonlyMap<string, readonly number[]>;
}

export const writerIndex = (value: number): number => Math.floor(value / SLOTS);
export const assistantSlot = (value: number): number => value % SLOTS;

/** One commit's diff against its first parent, as it arrives. */
interface PendingCommit {
  readonly hash: string;
  readonly parents: readonly string[];
  readonly diffs: FileDiff[];
  /** New files blame follows to a file `git log -M` gave to another (ledger-follows.ts): their diffs from it. */
  followed?: Map<string, FileDiff>;
}

/**
 * The history's lines in ONE streaming read: `git log --reverse --topo-order -p -U0 -w -M`
 * replays every commit, parents first, on a per-file ledger of which commit wrote each line; the
 * merges' diffs against their second parent come from one `git diff-tree --stdin` beside it.
 *
 * - A commit that is no merge applies its diff to its parent's ledger: deleted lines are handed to
 *   `onDeletion` at the commit's own date (rework), added lines are its own, except runs of lines
 *   the file already held (copies and moves within a file, as `git blame -M` finds them:
 *   `copiesWithinFile`) and lines whose text (blanks aside, 20 characters or more) it deleted once
 *   in another file: those keep their writers, and their deletion is no rework.
 *   Whitespace-only edits are no change (`-w`); renames carry their lines (`-M`).
 * - A merge takes each line from the first parent where its diff against the first parent leaves
 *   the line as it was, else from the parent whose diff leaves it (the side branch's commits wrote
 *   it), else the merge wrote it (a conflict's resolution). Its deletions are no one's rework: the
 *   side branch's own commits were charged when they were replayed.
 *
 * A commit's ledger is kept until its last child has been replayed; a history without branches
 * keeps one.
 */
export async function replayLedger(dir: string, head: string, options: LedgerOptions): Promise<Ledger> {
  const commits: string[] = [...(options.resume?.commits ?? [])];
  const assistants: (string | null)[] = [...(options.resume?.assistants ?? [])];
  const slotOf = new Map<string | null, number>(assistants.map((name, i) => [name, i + 1]));
  const children = new Map<string, number>();
  for (const parents of options.parents.values())
    for (const parent of parents) children.set(parent, (children.get(parent) ?? 0) + 1);
  const states = new Map<string, FileState>();
  const owners = new ArrayOwnership();
  const resumed = options.resume;
  if (resumed) {
    const files = resumed.files as ReadonlyMap<string, number[]>;
    const kept = { origins: new Map(files), texts: new Map(resumed.texts as Map<string, number[]>), tags: new Map() };
    owners.share(kept);
    states.set(resumed.head, kept);
  }
  // Site 0 is no site (a tag of 0 is a line of no copying block).
  const sites: CopySite[] = [NO_SITE];
  let moved = resumed?.movedLines ?? 0;
  const earlier = resumed?.commits.length ?? 0;
  // Read beside the log (a merge waits for them, pausing the log): they took a tenth of the pass before it.
  let sideDiffs: Map<string, Map<string, FileDiff>> | null = null;
  const sideRead = mergeSideDiffs(dir, options.parents, options.signal, options.omitPaths).then((found) => {
    sideDiffs = found;
  });
  sideRead.catch(() => undefined);
  // Left-out files: every commit still listed (`--full-history --sparse`), their lines never read.
  const pathspec = omitted(options.omitPaths);
  const limits = pathspec.length > 0 ? ['--full-history', '--sparse'] : [];

  /** The parent's ledger for a child: taken over by its last child, copied (its arrays shared, never changed in place) otherwise. */
  const stateOf = (parent: string | undefined): FileState => {
    if (parent === undefined) return emptyState();
    const state = states.get(parent);
    if (!state) return emptyState();
    const left = (children.get(parent) ?? 1) - 1;
    children.set(parent, left);
    if (left <= 0) {
      states.delete(parent);
      return state;
    }
    owners.share(state);
    return { origins: new Map(state.origins), texts: new Map(state.texts), tags: new Map(state.tags) };
  };
  const slot = (assistant: string | null): number => {
    let found = slotOf.get(assistant);
    if (found === undefined) {
      if (assistants.length >= SLOTS - 1) return SLOTS - 1;
      assistants.push(assistant);
      found = assistants.length;
      slotOf.set(assistant, found);
    }
    return found;
  };

  const replayPlain = (commit: PendingCommit, index: number): FileState => {
    const state = stateOf(commit.parents[0]);
    const removedText = new Map<string, number[]>();
    const deletions: { value: number; key: string | null }[] = [];
    const pending: EditedFile[] = [];
    // A file blame follows to another's source reads that source as it was before the commit.
    const sources = followedSources(state, commit.followed, owners);
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
        return index * SLOTS + (range ? slot(range.assistant) : 0);
      };
      const out: number[] = [];
      const tags: number[] = [];
      // Each line's text as a number (blanks aside), kept beside its writer: copies within a file are found by it.
      const texts: number[] | null = oldTexts && (diff.added?.length ?? 0) === countAdded(diff) ? [] : null;
      const added: { at: number; key: string | null; value: number }[] = [];
      /** Of the old file's lines, those this commit deletes: their deletion's index. */
      const deletedAt = new Map<number, number>();
      let position = 0;
      let removedAt = 0;
      let addedAt = 0;
      for (const [a, b, c, d] of diff.hunks) {
        const start = b === 0 ? a : a - 1;
        for (; position < start && position < old.length; position++) {
          out.push(old[position]!);
          tags.push(oldTags?.[position] ?? 0);
          texts?.push(oldTexts![position] ?? 0);
        }
        for (let i = 0; i < b; i++, position++) {
          const value = old[position] ?? UNKNOWN;
          const key = moveKey(diff.removed?.[removedAt++]);
          // The source's lines a followed file leaves out live on where `git log` took the source: no deletion.
          if (followed) continue;
          deletions.push({ value, key });
          deletedAt.set(position, deletions.length - 1);
          if (key !== null && value !== UNKNOWN) {
            const list = removedText.get(key) ?? [];
            list.push(deletions.length - 1);
            removedText.set(key, list);
          }
        }
        for (let i = 0; i < d; i++) {
          const text = diff.added?.[addedAt++];
          added.push({ at: out.length, key: moveKey(text), value: ownValue(c + i) });
          out.push(UNKNOWN);
          tags.push(0);
          texts?.push(lineHash(text ?? ''));
        }
      }
      for (; position < old.length; position++) {
        out.push(old[position]!);
        tags.push(oldTags?.[position] ?? 0);
        texts?.push(oldTexts![position] ?? 0);
      }
      if (texts && oldTexts) {
        const ownAt = new Map(added.map((line) => [line.at, line.value]));
        moved += copiesWithinFile(
          diff,
          old,
          oldTexts,
          out,
          texts,
          (oldIndex) => {
            const deletion = deletedAt.get(oldIndex);
            if (deletion !== undefined) movedDeletions.add(deletion);
          },
          (at, block, copied, found) => {
            const site = sites.length;
            const own = block.texts.map((_, k) => ownAt.get(at + k) ?? index * SLOTS);
            sites.push(copySite(block, own, copied, { writers: old, texts: oldTexts, tags: oldTags }, found));
            for (let k = 0; k < block.texts.length; k++) tags[at + k] = site * RUN_SPAN + k;
          },
        );
      }
      if (to && options.follows(to) && !diff.binary) pending.push({ to, old, oldTexts, out, texts, tags, added });
    }
    // Moves: an added line whose text the commit deleted once and added once keeps that line's
    // writer (a repeated line, a lock file's `source = …`, could come from any of its copies).
    const addedCount = new Map<string, number>();
    for (const file of pending)
      for (const line of file.added)
        if (line.key !== null && file.out[line.at] === UNKNOWN)
          addedCount.set(line.key, (addedCount.get(line.key) ?? 0) + 1);
    for (const file of pending) {
      for (const line of file.added) {
        if (file.out[line.at] !== UNKNOWN) continue; // a copy within the file, found above
        const from = line.key === null ? undefined : removedText.get(line.key);
        const available = from?.filter((at) => !movedDeletions.has(at));
        const unique = available?.length === 1 && from!.length === 1 && addedCount.get(line.key!) === 1;
        const taken = unique ? available[0] : undefined;
        if (taken !== undefined) {
          movedDeletions.add(taken);
          file.out[line.at] = deletions[taken]!.value;
          moved++;
        } else file.out[line.at] = line.value;
      }
      state.origins.set(file.to, owners.reuse(file.old, file.out));
      keepTags(state, file.to, file.tags);
      if (file.texts) state.texts.set(file.to, owners.reuse(file.oldTexts, file.texts));
      else state.texts.delete(file.to);
    }
    if (options.onDeletion)
      deletions.forEach((deletion, at) => {
        if (movedDeletions.has(at)) return;
        options.onDeletion!({
          by: index,
          writer: deletion.value === UNKNOWN ? null : writerIndex(deletion.value),
          marked: deletion.value !== UNKNOWN && assistantSlot(deletion.value) > 0,
        });
      });
    movedDeletions.clear();
    return state;
  };
  /** This commit's deletions that are moves (their line lives on elsewhere): no rework. */
  const movedDeletions = new Set<number>();

  const replayMerge = (commit: PendingCommit, index: number): FileState => {
    // The second parent's ledger, read before the first one is taken over (a third parent's lines are the merge's).
    const side = states.get(commit.parents[1]!) ?? emptyState();
    const state = stateOf(commit.parents[0]);
    for (const parent of commit.parents.slice(1)) stateOf(parent);
    const mine = index * SLOTS;
    // The merge's diff against the second parent, by the merge's path (none: the merge is the side's tree).
    const againstSide = sideDiffs!.get(commit.hash) ?? new Map<string, FileDiff>();
    for (const diff of commit.diffs) {
      const { from, to, old, oldTexts, oldTags } = takeFile(state, diff);
      if (!to) continue;
      if (diff.binary || !options.follows(to)) {
        remove(state, to);
        continue;
      }
      const sideDiff = againstSide.get(to);
      const sideFrom = sideDiff ? (sideDiff.oldPath ?? sideDiff.renameFrom) : to;
      const sideOld = sideFrom ? side.origins.get(sideFrom) : undefined;
      // The merge's file is the side's, blob for blob: the whole of it is the side's (as blame passes it).
      if (!sideDiff && sideOld !== undefined) {
        for (const values of [sideOld, side.tags.get(sideFrom!), side.texts.get(sideFrom!)]) owners.shareArray(values);
        state.origins.set(to, sideOld);
        keepTags(state, to, side.tags.get(sideFrom!));
        const sideTexts = side.texts.get(sideFrom!);
        if (sideTexts) state.texts.set(to, sideTexts);
        else state.texts.delete(to);
        continue;
      }
      if (from && old === undefined) {
        // A file the first parent had but did not follow (binary or excluded then): not followed now.
        remove(state, to);
        continue;
      }
      const fromFirst = applyKeeping(old ?? null, diff);
      const fromSide = sideOld === undefined ? null : sideDiff ? applyKeeping(sideOld, sideDiff) : sideOld;
      const sideTagsOld = tagsOf(side, sideFrom ?? undefined, sideOld?.length ?? 0);
      const tagsFirst = applyKeeping(oldTags ?? new Array<number>(old?.length ?? 0).fill(0), diff).map((tag) =>
        tag === UNKNOWN ? 0 : tag,
      );
      const tagsSide = sideDiff ? applyKeeping(sideTagsOld, sideDiff) : sideTagsOld;
      if (fromSide && fromSide.length === fromFirst.length)
        for (let i = 0; i < fromFirst.length; i++)
          if (fromFirst[i] === UNKNOWN && fromSide[i] !== UNKNOWN) {
            fromFirst[i] = fromSide[i]!;
            tagsFirst[i] = Math.max(0, tagsSide[i] ?? 0);
          }
      keepTags(state, to, tagsFirst);
      state.origins.set(
        to,
        fromFirst.map((value) => (value === UNKNOWN ? mine : value)),
      );
      const texts = oldTexts && (diff.added?.length ?? 0) === countAdded(diff) ? applyTexts(oldTexts, diff) : null;
      if (texts) state.texts.set(to, texts);
      else state.texts.delete(to);
    }
    return state;
  };

  /** A commit's new files blame follows to another file's source, read before it is replayed. */
  const follow = async (commit: PendingCommit): Promise<void> => {
    if (commit.parents.length !== 1) return;
    const files = filesToFollow(commit.diffs, options.follows);
    if (files.paths.length === 0) return;
    const found = await followedDiffs(dir, commit.hash, commit.parents[0]!, files, options.signal);
    if (found.size > 0) commit.followed = found;
  };
  let current: PendingCommit | null = null;
  const finish = (): void => {
    if (!current) return;
    const commit = current;
    current = null;
    const index = commits.length;
    commits.push(commit.hash);
    const state = commit.parents.length > 1 ? replayMerge(commit, index) : replayPlain(commit, index);
    if (commit.parents.length <= 1) options.onCommitAdded?.(commit.hash, addedLinesOf(commit.diffs, options.follows));
    if ((children.get(commit.hash) ?? 0) > 0 || commit.hash === head) states.set(commit.hash, state);
    options.onReplayed?.(commits.length - earlier);
  };
  await streamCommitDiffs(
    dir,
    [
      'log',
      '--reverse',
      '--topo-order',
      '--diff-merges=first-parent',
      ...limits,
      ...LINE_DIFF_ARGS,
      '--end-of-options',
      resumed ? `${resumed.head}..${head}` : head,
      ...(pathspec.length > 0 ? ['--', ...pathspec] : []),
    ],
    {
      content: true,
      commit: (hash, _isMerge, parents) => {
        const next = (): void => {
          finish();
          current = { hash, parents, diffs: [] };
        };
        const waits = [
          ...(sideDiffs === null && (current?.parents.length ?? 0) > 1 ? [sideRead] : []),
          ...(current ? [follow(current)] : []),
        ];
        if (waits.length > 0) return Promise.all(waits).then(next);
        next();
      },
      file: (diff) => current?.diffs.push(diff),
    },
    options.signal,
  );
  await sideRead;
  if (current) await follow(current);
  finish();
  const last = states.get(head) ?? emptyState();
  return { head, files: judgeCopies(last, sites), texts: last.texts, commits, assistants, movedLines: moved };
}
