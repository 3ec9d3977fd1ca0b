import { createHash } from 'node:crypto';
import {
  excludeMatcher,
  isTraceFile,
  openBlameCache,
  readHeadLines,
  readLineRecords,
  readLineTree,
  readRangeAddedLines,
  readReworkedLines,
  type AddedLineReadings,
  type BlameCache,
  type GitBounds,
  type LineRecords,
  type SharedAuthorshipNotes,
} from '@cadence-detect/git-source';
import type { AddedLinesReader, AnalysisEvent, CommitRecord, RepositorySourceInfo } from '@cadence-detect/plugin-sdk';
import type { EngineLogger } from '../engine-logger.js';
import type { LineReadings } from '../line-shares.js';

export interface BlamedLinesOptions {
  readonly dir: string;
  /** A server mirror: it keeps whole-tree blames between analyses. */
  readonly mirrored: boolean;
  readonly rev: string;
  readonly range: RepositorySourceInfo['range'];
  /** `--since` (an ISO date), or null. */
  readonly since: string | null;
  readonly commits: readonly CommitRecord[];
  readonly excludeFiles: readonly string[];
  readonly gitAiNotes: SharedAuthorshipNotes;
  readonly unreadableFiles: readonly string[] | undefined;
  /** What each git child may cost: a file version above the blob cap is binary, as the history read counts it. */
  readonly bounds: GitBounds;
  readonly maxFiles: number;
  readonly emit: (event: AnalysisEvent) => void;
  readonly logger: EngineLogger | undefined;
  readonly signal: AbortSignal;
  /** What strategies read of each commit's added lines: a range's own commits are read for them. */
  readonly readers?: readonly AddedLinesReader[];
  /** Told the readers' numbers as soon as they are read (before the head's blame ends); undefined when there are none. */
  readonly onAddedLineReadings?: (readings: AddedLineReadings | undefined) => void;
}

/**
 * The lines of a range (a pull request, a push) or of a `--since` analysis, where there is no
 * whole-history pass: blame of the files at the head (only the range's own files for a range), and
 * the rework from blames of the deleting commits (kept in a mirror for `--since`).
 */
export async function readBlamedLines(options: BlamedLinesOptions): Promise<LineReadings> {
  const { rev, range, since, commits, excludeFiles, gitAiNotes, emit, logger, signal } = options;
  // A range (a pull request, a push) blames only the files its commits touched: no other line can be its.
  const onlyPaths = range
    ? new Set(commits.flatMap((c) => (c.filesTruncated ? [] : c.files.map((f) => f.path))))
    : undefined;
  const truncated = range ? commits.some((c) => c.filesTruncated) : false;
  // A range's attributes are its base's: a request cannot exclude its own lines by marking them generated.
  const tree = await readLineTree(
    options.dir,
    rev,
    excludeMatcher(excludeFiles),
    signal,
    range?.before ?? undefined,
    options.unreadableFiles,
    options.bounds,
  );
  // git-ai notes and Agent Trace records name lines exactly: read before blame matches them.
  const records = await readLineRecords(options.dir, rev, {
    commits: new Set(commits.map((c) => c.hash)),
    traceFiles: [...tree.files.keys()].filter(isTraceFile),
    gitAiNotes,
    signal: signal,
  });
  for (const reason of records.skipped) emit({ event: 'fetch', message: `skipped a line record: ${reason}` });
  const blameOnly = onlyPaths && !truncated ? onlyPaths : undefined;
  // A mirror keeps whole-tree blames between analyses; a range blames too few files to repay the history walk that keys them.
  const cache =
    options.mirrored && !blameOnly && (range || since) ? await openBlameCache(options.dir, rev, signal) : undefined;
  // Blame, the rework pass and the range's added lines are other git processes: side by side.
  const addedLines = rangeReadings(options, tree.isExcluded);
  // Awaited below; marked handled now, should the blame fail first.
  addedLines.catch(() => undefined);
  const [head, reworked] = await Promise.all([
    readHeadLines(options.dir, rev, {
      isExcluded: tree.isExcluded,
      tree,
      records,
      maxFiles: options.maxFiles,
      signal: signal,
      ...(blameOnly ? { onlyPaths: blameOnly } : {}),
      ...(cache ? { cache } : {}),
    }),
    reworkOf(options, tree.isExcluded, records, cache),
  ]);
  if (cache) await saveBlames(cache, emit, logger);
  const addedLineReadings = await addedLines;
  return {
    head,
    reworked: reworked.lines,
    reworkedMarked: reworked.marked,
    records,
    ...(addedLineReadings ? { addedLineReadings } : {}),
  };
}

/**
 * A range's own commits read for the strategies' readers (a `--since` analysis has none: its
 * commits are no change of their own). A failed read leaves the strategies without readings, the
 * lines counted all the same.
 */
async function rangeReadings(
  options: BlamedLinesOptions,
  isExcluded: (path: string) => boolean,
): Promise<AddedLineReadings | undefined> {
  const { range, readers, logger } = options;
  if (!range || !readers?.length) {
    options.onAddedLineReadings?.(undefined);
    return undefined;
  }
  const read = await readRangeAddedLines(
    options.dir,
    { before: range.before, after: options.rev },
    readers,
    (path) => !isExcluded(path),
    options.signal,
    options.bounds,
  ).catch((error: unknown) => {
    if (options.signal.aborted) throw error;
    logger?.warn('could not read the range\u2019s added lines', { error: String(error) });
    return undefined;
  });
  for (const { key, error } of read?.readerFailures ?? [])
    logger?.warn('an added-lines reader failed', { reader: key, error: String(error) });
  options.onAddedLineReadings?.(read?.readings);
  return read?.readings;
}

/** The range's or `--since`'s rework: blames of the deleting commits, kept in a mirror's cache under what it depends on besides the head. */
async function reworkOf(
  options: BlamedLinesOptions,
  isExcluded: (path: string) => boolean,
  records: LineRecords,
  cache: BlameCache | undefined,
): Promise<{ lines: Map<string, number>; marked: Map<string, number> }> {
  const { rev, since, excludeFiles } = options;
  // What the rework depends on besides the head: the exclusions and the line records.
  const reworkKey = createHash('sha256')
    .update(JSON.stringify([rev, since, excludeFiles, [...records.byCommit].map(([c, files]) => [c, [...files]])]))
    .digest('hex');
  const kept = cache?.lookupRework(reworkKey);
  if (kept) return kept;
  const found = await readReworkedLines(options.dir, options.commits, {
    isExcluded,
    records,
    bounds: options.bounds,
    signal: options.signal,
  });
  cache?.storeRework(reworkKey, found);
  return found;
}

/** Keeps the mirror's blames for the next analysis, and says how many files were blamed. */
async function saveBlames(
  cache: BlameCache,
  emit: (event: AnalysisEvent) => void,
  logger: EngineLogger | undefined,
): Promise<void> {
  await cache
    .save()
    .catch((error: unknown) => logger?.warn('could not keep the blames in the mirror', { error: String(error) }));
  emit({
    event: 'fetch',
    message: `blamed ${cache.stats.misses} files, ${cache.stats.hits} unchanged since the mirror's last line count`,
  });
}
