import type { FileDiff } from './line-replay.js';

/** A copy within a file counts when it holds this many letters and digits (ledger-texts.ts), as blame -M scores it. */
const COPY_MIN_CHARS = 20;

/** A commit's ledger: each followed file's writers, and its lines' texts as numbers (where known). */
export interface FileState {
  readonly origins: Map<string, number[]>;
  readonly texts: Map<string, number[]>;
  /**
   * Per file, per line: 0, or the copy within the file that gave the line its writer
   * (`run * RUN_SPAN + offset`): blame -M scores only the part of a copy that stays one block up
   * to the head, so the copy is judged again there (`judgeCopies`).
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
  readonly tags: number[];
  readonly added: { at: number; key: string | null; value: number }[];
}

/** A copy within a file: the writers its lines would have as the copying commit's own, and their letters and digits. */
export interface CopyRun {
  readonly own: number[];
  readonly weights: number[];
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
 * Copies within a file as blame -M sees them from the head: blame passes back blocks of lines that
 * stay together, so a copy that later commits cut into pieces is judged by each piece, and a piece
 * with fewer than COPY_MIN_CHARS letters and digits is its copying commit's own.
 */
export function judgeCopies(state: FileState, runs: readonly CopyRun[]): Map<string, number[]> {
  const files = new Map(state.origins);
  for (const [path, values] of state.origins) {
    const tags = state.tags.get(path);
    if (!tags || tags.length !== values.length) continue;
    let judged: number[] | null = null;
    for (let i = 0; i < tags.length;) {
      const tag = tags[i]!;
      if (tag <= 0) {
        i++;
        continue;
      }
      const run = runs[Math.floor(tag / RUN_SPAN)]!;
      let end = i + 1;
      while (end < tags.length && tags[end] === tags[end - 1]! + 1 && tags[end]! % RUN_SPAN !== 0) end++;
      let weight = 0;
      for (let k = i; k < end; k++) weight += run.weights[tags[k]! % RUN_SPAN]!;
      if (weight < COPY_MIN_CHARS) {
        judged ??= [...values];
        for (let k = i; k < end; k++) judged[k] = run.own[tags[k]! % RUN_SPAN]!;
      }
      i = end;
    }
    if (judged) files.set(path, judged);
  }
  return files;
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
