import type { AddedLinesReader } from '@cadence-detect/plugin-sdk';
import { addedLinesOf, AddedLinesReading, type AddedLineReadings } from './added-lines.js';
import { LINE_DIFF_ARGS, streamCommitDiffs, type FileDiff } from './line-replay.js';
import type { GitBounds } from './git-process.js';

export interface RangeReadings {
  readonly readings: AddedLineReadings;
  /** The readers that threw, each with its first error. */
  readonly readerFailures: readonly { readonly key: string; readonly error: unknown }[];
}

/**
 * The readers' numbers for a range's own commits (a pull request, a push), where no whole-history
 * pass replays them: ONE `git log -p -U0 -w -M --no-merges <before>..<after>`, each commit's added
 * lines of the files `follows` takes, bounded and cut as the pass hands them (added-lines.ts), so a
 * commit reads the same in a range as in its whole history.
 */
export async function readRangeAddedLines(
  dir: string,
  range: { readonly before: string | null; readonly after: string },
  readers: readonly AddedLinesReader[],
  follows: (path: string) => boolean,
  signal?: AbortSignal,
  bounds?: GitBounds,
): Promise<RangeReadings> {
  const reading = new AddedLinesReading(readers);
  let current: { hash: string; diffs: FileDiff[] } | null = null;
  const finish = (): void => {
    if (current && reading.wanted) reading.read(current.hash, addedLinesOf(current.diffs, follows));
    current = null;
  };
  await streamCommitDiffs(
    dir,
    [
      'log',
      '--no-merges',
      ...LINE_DIFF_ARGS,
      '--end-of-options',
      range.before ? `${range.before}..${range.after}` : range.after,
    ],
    {
      content: true,
      commit: (hash) => {
        finish();
        current = { hash, diffs: [] };
      },
      file: (diff) => current?.diffs.push(diff),
    },
    { signal, bounds },
  );
  finish();
  return { readings: reading.result(), readerFailures: reading.failures };
}
