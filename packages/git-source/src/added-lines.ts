import {
  ADDED_LINE_CHARS,
  ADDED_LINES_PER_COMMIT,
  type AddedLine,
  type AddedLinesReader,
} from '@cadence-detect/plugin-sdk';
import type { FileDiff } from './line-replay.js';

export type { AddedLine } from '@cadence-detect/plugin-sdk';

/** A commit's added lines as readers get them: followed text files only, bounded. */
export function addedLinesOf(diffs: readonly FileDiff[], follows: (path: string) => boolean): AddedLine[] {
  const lines: AddedLine[] = [];
  for (const diff of diffs) {
    const path = diff.newPath ?? diff.renameTo;
    if (!path || diff.binary || !diff.added || !follows(path)) continue;
    for (const text of diff.added) {
      if (lines.length >= ADDED_LINES_PER_COMMIT) return lines;
      lines.push({ path, text: text.length > ADDED_LINE_CHARS ? text.slice(0, ADDED_LINE_CHARS) : text });
    }
  }
  return lines;
}

/** Readings by reader key, then by commit hash. */
export type AddedLineReadings = ReadonlyMap<string, ReadonlyMap<string, number>>;

/**
 * The readers of one pass and what they return per commit, started from a kept pass's readings. A
 * reader that throws is dropped for the pass (its readings with it); the others go on.
 */
export class AddedLinesReading {
  private readonly readings = new Map<string, Map<string, number>>();
  private readonly failed = new Set<string>();

  constructor(
    private readonly readers: readonly AddedLinesReader[],
    kept?: AddedLineReadings,
  ) {
    for (const reader of readers) this.readings.set(reader.key, new Map(kept?.get(reader.key) ?? []));
  }

  get wanted(): boolean {
    return this.readers.length > this.failed.size;
  }

  read(hash: string, lines: readonly AddedLine[]): void {
    for (const reader of this.readers) {
      if (this.failed.has(reader.key)) continue;
      try {
        const value = reader.read(lines);
        if (typeof value !== 'number' || !Number.isFinite(value))
          throw new Error(`not a finite number: ${String(value)}`);
        this.readings.get(reader.key)?.set(hash, value);
      } catch (error) {
        this.failed.add(reader.key);
        this.readings.delete(reader.key);
        this.failures.push({ key: reader.key, error });
      }
    }
  }

  /** The readers that threw, each with its first error. */
  readonly failures: { readonly key: string; readonly error: unknown }[] = [];

  result(): AddedLineReadings {
    return this.readings;
  }
}
