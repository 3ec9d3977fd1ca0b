import { createHash } from 'node:crypto';
import {
  excludeMatcher,
  isTraceFile,
  openBlameCache,
  readHeadLines,
  readLineRecords,
  readLineTree,
  readReworkedLines,
  type SharedAuthorshipNotes,
} from '@cadence-detect/git-source';
import type { AnalysisEvent, CommitRecord, RepositorySourceInfo } from '@cadence-detect/plugin-sdk';
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
  readonly maxFiles: number;
  readonly emit: (event: AnalysisEvent) => void;
  readonly logger: EngineLogger | undefined;
  readonly signal: AbortSignal;
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
  // What the rework of a whole history depends on besides the head: the exclusions and the line records.
  const reworkKey = createHash('sha256')
    .update(JSON.stringify([rev, since, excludeFiles, [...records.byCommit].map(([c, files]) => [c, [...files]])]))
    .digest('hex');
  // Blame and the rework pass are other git processes: side by side.
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
    // The whole history read: one replay of it (kept in a mirror); a range or --since: blames of the range's deletions.
    (async () => {
      const kept = cache?.lookupRework(reworkKey);
      if (kept) return kept;
      const found = await readReworkedLines(options.dir, commits, {
        isExcluded: tree.isExcluded,
        records,
        signal: signal,
      });
      cache?.storeRework(reworkKey, found);
      return found;
    })(),
  ]);
  if (cache) {
    await cache
      .save()
      .catch((error: unknown) => logger?.warn('could not keep the blames in the mirror', { error: String(error) }));
    emit({
      event: 'fetch',
      message: `blamed ${cache.stats.misses} files, ${cache.stats.hits} unchanged since the mirror's last line count`,
    });
  }
  return { head, reworked: reworked.lines, reworkedMarked: reworked.marked, records };
}
