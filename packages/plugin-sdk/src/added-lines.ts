/** One line a commit added, as the line pass reads it (without its `+`). */
export interface AddedLine {
  /** The file's path after the commit. */
  readonly path: string;
  readonly text: string;
}

/** At most this many added lines of a commit reach a reader, in the diff's order. */
export const ADDED_LINES_PER_COMMIT = 600;
/** A line reaches a reader cut at this many characters. */
export const ADDED_LINE_CHARS = 160;

/**
 * What a repository strategy reads of each commit's added lines: the engine hands them over while
 * its one pass over the history's diffs replays the commit (no read of its own), and keeps the
 * number `read` returns for the commit with the pass between analyses. The strategy finds the
 * numbers in `context.addedLineReadings`.
 *
 * - Lines of excluded files (`exclude_files`, lock files, vendored folders) and of binary files are
 *   left out; a merge is not read. At most ADDED_LINES_PER_COMMIT lines of ADDED_LINE_CHARS
 *   characters each.
 * - `key` names what `read` computes: a kept number is used again only under the same key, so
 *   change it whenever `read` would give another number (other weights, another tokenizer).
 * - `read` runs once per commit, on the analysis's thread, while the history replays: keep it
 *   cheap and pure. A reader that throws is dropped for the analysis (its strategy gets no
 *   readings) without failing the pass.
 * @since 2.0
 */
export interface AddedLinesReader {
  readonly key: string;
  read(lines: readonly AddedLine[]): number;
}
