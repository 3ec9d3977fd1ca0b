import type { FileDiff } from './line-replay.js';

/** A commit's ledger: each followed file's writers, and its lines' texts as numbers (where known). */
export interface FileState {
  readonly origins: Map<string, number[]>;
  readonly texts: Map<string, number[]>;
  /**
   * Per file, per line: 0, or the added block that copied from its own file which the line is of
   * (`site * RUN_SPAN + offset`): blame -M lines up only the part of a block that stays one block
   * up to the head, so each such part is lined up again there (`judgeCopies`).
   */
  readonly tags: Map<string, number[]>;
}

/** A file a commit edits: its arrays before, the new ones, and its added lines (`at` in `out`). */
export interface EditedFile {
  readonly to: string;
  readonly old: number[] | undefined;
  readonly oldTexts: number[] | undefined;
  readonly out: number[];
  readonly texts: number[] | null;
  /** null: every line's tag is 0. */
  readonly tags: number[] | null;
  readonly added: { at: number; key: string | null; value: number }[];
}

export const RUN_SPAN = 1 << 20;

export const emptyState = (): FileState => ({ origins: new Map(), texts: new Map(), tags: new Map() });

/** Keeps a file's copy tags only where a line has one: most files hold no copy, and their tags would be zeros. */
export function keepTags(state: FileState, path: string, tags: readonly number[] | undefined): void {
  if (tags && tags.some((tag) => tag > 0)) state.tags.set(path, tags as number[]);
  else state.tags.delete(path);
}

/** A file's copy tags, zeros where it keeps none. */
export function tagsOf(state: FileState, path: string | undefined, length: number): number[] {
  return (path === undefined ? undefined : state.tags.get(path)) ?? new Array<number>(length).fill(0);
}

export function remove(state: FileState, path: string): void {
  state.origins.delete(path);
  state.texts.delete(path);
  state.tags.delete(path);
}

/** A diff's paths and what the state holds of its file before it (a renamed file leaves its old path). */
export function takeFile(state: FileState, diff: FileDiff) {
  const from = diff.oldPath ?? diff.renameFrom;
  const to = diff.newPath ?? diff.renameTo;
  const old = from ? state.origins.get(from) : [];
  const oldTexts = from ? state.texts.get(from) : [];
  const oldTags = from ? state.tags.get(from) : [];
  if (from && to !== from) remove(state, from);
  return { from, to, old, oldTexts, oldTags };
}

/**
 * The files new files of a commit follow (`PendingCommit.followed`), as they were before the
 * commit: `git log -M` may rename or delete them in the same commit, and their arrays then stay
 * theirs (shared, never written in place). `take` reads a followed diff's source like `takeFile`,
 * without removing it.
 */
export function followedSources(
  state: FileState,
  followed: ReadonlyMap<string, FileDiff> | undefined,
  owners: ArrayOwnership,
) {
  const kept = new Map<string, { origins?: number[]; texts?: number[]; tags?: number[] }>();
  for (const diff of followed?.values() ?? []) {
    const from = diff.renameFrom!;
    const file = { origins: state.origins.get(from), texts: state.texts.get(from), tags: state.tags.get(from) };
    for (const values of [file.origins, file.texts, file.tags]) owners.shareArray(values);
    kept.set(from, file);
  }
  return {
    /** The followed diff that replaces a new file's own, when its source's lines are followed. */
    of: (diff: FileDiff): FileDiff | undefined => {
      const replaced = diff.newPath === null ? undefined : followed?.get(diff.newPath);
      return replaced && kept.get(replaced.renameFrom!)?.origins ? replaced : undefined;
    },
    take: (diff: FileDiff) => {
      const file = kept.get(diff.renameFrom!)!;
      return { to: diff.renameTo, old: file.origins, oldTexts: file.texts, oldTags: file.tags };
    },
  };
}

/**
 * Which of a replay's arrays more than one ledger holds. A file's arrays live until the file is
 * edited again, long enough to reach V8's old generation; building new ones at every edit left
 * most of a long history's line arrays there as garbage (the process peaked at three times what it
 * held). An edit writes into the file's own arrays instead, unless another ledger holds them too.
 */
export class ArrayOwnership {
  private readonly shared = new WeakSet<readonly number[]>();

  /** Every array of `state` is held by a second ledger from now on (a copy for another child, a kept ledger). */
  share(state: FileState): void {
    for (const files of [state.origins, state.texts, state.tags])
      for (const values of files.values()) this.shareArray(values);
  }

  shareArray(values: readonly number[] | undefined): void {
    if (values) this.shared.add(values);
  }

  /** `fresh`'s values, in `old` when no other ledger holds it (`fresh` is then garbage the young generation takes). */
  reuse(old: number[] | undefined, fresh: number[]): number[] {
    if (!old || old === fresh || this.shared.has(old)) return fresh;
    old.length = fresh.length;
    for (let i = 0; i < fresh.length; i++) old[i] = fresh[i]!;
    return old;
  }
}

/** A line a commit deleted, with the commit that wrote it: indexes into the ledger's `commits` (numbers: a long history's hash pairs held tens of MiB). */
export interface LedgerDeletion {
  readonly by: number;
  /** The writer, or null when unknown. */
  readonly writer: number | null;
  /** Whether the writer's record names the line an assistant's. */
  readonly marked: boolean;
}
