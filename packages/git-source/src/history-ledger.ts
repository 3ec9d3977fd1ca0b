import { itemAt } from '@cadence-detect/errors';
import { addedLinesOf, type AddedLine } from './added-lines.js';
import { omitted } from './history-log.js';
import { judgeCopies } from './copy-sites.js';
import { LedgerBook, type PendingCommit } from './ledger-book.js';
import { filesToFollow, followedDiffs } from './ledger-follows.js';
import { replayMerge } from './merge-replay.js';
import { mergeSideDiffs } from './ledger-merges.js';
import { replayPlain } from './commit-replay.js';
import { emptyState, type LedgerDeletion } from './ledger-state.js';
import { LINE_DIFF_ARGS, streamCommitDiffs, type FileDiff } from './line-replay.js';
import { ignoringBlankChanges } from './blank-changes.js';
import type { FileCountCollector } from './pass-counts.js';
import type { GitBounds } from './git-process.js';

/**
 * The line diffs without `-w`: the same read gives numstat's counts (blank-only changes counted),
 * and the ledger takes each diff as `-w` makes it (ignoringBlankChanges).
 */
const LEDGER_DIFF_ARGS = LINE_DIFF_ARGS.filter((arg) => arg !== '-w');

/** `git log --reverse --topo-order -p` from the kept ledger's head (or the root) to `head`. */
function ledgerLogArguments(
  head: string,
  resumed: Ledger | undefined,
  omitPaths: readonly string[] | undefined,
): string[] {
  // Left-out files: every commit still listed (`--full-history --sparse`), their lines never read.
  const pathspec = omitted(omitPaths);
  return [
    'log',
    '--reverse',
    '--topo-order',
    '--diff-merges=first-parent',
    ...(pathspec.length > 0 ? ['--full-history', '--sparse'] : []),
    ...LEDGER_DIFF_ARGS,
    '--end-of-options',
    resumed ? `${resumed.head}..${head}` : head,
    ...(pathspec.length > 0 ? ['--', ...pathspec] : []),
  ];
}

/** A line whose writer the ledger cannot know (its file was not followed): the replay's own marker. */
export { UNKNOWN_ORIGIN as UNKNOWN } from './line-replay.js';

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
  /** What each git child may cost (the blob cap of `limits.max_diff_blob_mb`, the memory ceiling); DEFAULT_GIT_BOUNDS when absent. */
  readonly bounds?: GitBounds;
  /**
   * A ledger kept from an earlier read of an ancestor of `head`: only the commits after its head are
   * replayed. Every one of them must descend from it alone (`resumable` says whether they do).
   */
  readonly resume?: Ledger;
  /** Each commit that is no merge, with its added lines (added-lines.ts), as it is replayed. */
  readonly onCommitAdded?: (hash: string, lines: readonly AddedLine[]) => void;
  /** Takes each commit's files as numstat counts them, from the same diffs (pass-counts.ts). */
  readonly counts?: FileCountCollector;
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

export { assistantSlot, writerIndex } from './ledger-book.js';

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
  const resumed = options.resume;
  const book = new LedgerBook(options.parents, resumed);
  // Read beside the log (a merge waits for them, pausing the log): they took a tenth of the pass before it.
  let sideDiffs: Map<string, Map<string, FileDiff>> | null = null;
  const sideRead = mergeSideDiffs(dir, options.parents, options).then((found) => {
    sideDiffs = found;
  });
  sideRead.catch(() => undefined);
  /** A commit's new files blame follows to another file's source, read before it is replayed. */
  const follow = async (commit: PendingCommit): Promise<void> => {
    if (commit.parents.length !== 1) return;
    const files = filesToFollow(commit.diffs, options.follows);
    if (files.paths.length === 0) return;
    const found = await followedDiffs(dir, commit.hash, itemAt(commit.parents, 0), files, options);
    if (found.size > 0) commit.followed = found;
  };
  let current: PendingCommit | null = null;
  const finish = (): void => {
    if (!current) return;
    const commit = current;
    current = null;
    const index = book.commits.length;
    book.commits.push(commit.hash);
    const merge = commit.parents.length > 1;
    const state = merge
      ? replayMerge(book, commit, index, sideDiffs?.get(commit.hash) ?? new Map<string, FileDiff>(), options)
      : replayPlain(book, commit, index, options);
    if (!merge) options.onCommitAdded?.(commit.hash, addedLinesOf(commit.diffs, options.follows));
    book.keep(commit.hash, state, head);
    options.onReplayed?.(book.commits.length - book.earlier);
  };
  await streamCommitDiffs(
    dir,
    ledgerLogArguments(head, resumed, options.omitPaths),
    {
      content: true,
      commit: (hash, _isMerge, parents) => {
        const next = (): void => {
          finish();
          current = { hash, parents, diffs: [] };
          options.counts?.commit(hash, parents.length > 1);
        };
        const waits = [
          ...(sideDiffs === null && (current?.parents.length ?? 0) > 1 ? [sideRead] : []),
          ...(current ? [follow(current)] : []),
        ];
        if (waits.length > 0) return Promise.all(waits).then(next);
        next();
      },
      file: (diff) => {
        options.counts?.file(diff);
        current?.diffs.push(ignoringBlankChanges(diff));
      },
    },
    options,
  );
  await sideRead;
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- Set in a callback TypeScript does not follow
  if (current) await follow(current);
  finish();
  return headLedger(book, head);
}

/** The head's ledger, its copies lined up as blame lines them up (`judgeCopies`). */
function headLedger(book: LedgerBook, head: string): Ledger {
  const last = book.states.get(head) ?? emptyState();
  return {
    head,
    files: judgeCopies(last, book.sites),
    texts: last.texts,
    commits: book.commits,
    assistants: book.assistants,
    movedLines: book.moved,
  };
}
