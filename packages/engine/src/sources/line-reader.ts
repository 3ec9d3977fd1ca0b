import type { ClonedRepository, GitBounds, SharedAuthorshipNotes } from '@cadence-detect/git-source';
import type { AddedLineReadings } from '@cadence-detect/git-source';
import type { AddedLinesReader, AnalysisEvent, CommitRecord, RepositorySourceInfo } from '@cadence-detect/plugin-sdk';
import type { AnalysisRequest } from '../analysis-request.js';
import type { EngineConfig } from '../engine-config.js';
import type { EngineLogger } from '../engine-logger.js';
import type { PreparedRepository } from '../prepared-source.js';
import { readBlamedLines } from './blamed-lines.js';
import type { WholeHistoryLines } from './whole-history-lines.js';

/** `limits.max_line_files` when the configuration gives none. */
const DEFAULT_MAX_LINE_FILES = 20_000;

export interface LineReaderParts {
  readonly request: Extract<AnalysisRequest, { kind: 'repository' }>;
  readonly config: EngineConfig;
  /** A whole history's one pass, started beside the history read; null for a range or `--since`. */
  readonly wholeLines: WholeHistoryLines | null;
  readonly clone: ClonedRepository;
  readonly rev: string;
  readonly range: RepositorySourceInfo['range'];
  readonly commits: readonly CommitRecord[];
  readonly excludeFiles: readonly string[];
  readonly gitAiNotes: SharedAuthorshipNotes;
  readonly unreadableFiles: readonly string[] | undefined;
  /** The history read's bounds (`limits.max_diff_blob_mb`): the line readings diff within them too. */
  readonly bounds: GitBounds;
  readonly emit: (event: AnalysisEvent) => void;
  readonly logger: EngineLogger;
  /** What strategies read of each commit's added lines: a range reads its own commits for them. */
  readonly readers?: readonly AddedLinesReader[];
}

/**
 * How the prepared repository counts its lines (docs/lines.md): why it does not (`--no-lines`,
 * `lines.enabled: false`), or a reader: the whole history's one pass, else a blame of the files a
 * range or `--since` touched.
 */
export function lineReaderOf(
  parts: LineReaderParts,
): Pick<PreparedRepository, 'linesSkipped'> | Pick<PreparedRepository, 'readLines' | 'addedLineReadings'> {
  const { request, config, wholeLines, emit } = parts;
  if (request.lines === false) return { linesSkipped: 'not asked for (--no-lines)' };
  if (config.lines?.enabled === false) return { linesSkipped: 'lines.enabled is false' };
  const maxFiles = config.limits.max_line_files ?? DEFAULT_MAX_LINE_FILES;
  const range = wholeLines ? null : rangeReadings(parts);
  return {
    ...(wholeLines ? { addedLineReadings: () => wholeLines.readings } : {}),
    ...(range ? { addedLineReadings: () => range.early } : {}),
    readLines: async (signal: AbortSignal) => {
      if (wholeLines) {
        const readings = await wholeLines.read(
          parts.commits,
          maxFiles,
          signal,
          parts.unreadableFiles,
          (error) => parts.logger.warn('could not keep the line pass', { error: String(error) }),
          (reader, error) => parts.logger.warn('an added-lines reader failed', { reader, error: String(error) }),
        );
        emit({ event: 'fetch', message: readings.summary });
        return readings;
      }
      const blamed = readBlamedLines({
        ...(range ? { readers: parts.readers ?? [], onAddedLineReadings: range.settle } : {}),
        dir: parts.clone.dir,
        mirrored: parts.clone.mirrored === true,
        rev: parts.rev,
        range: parts.range,
        since: request.since ?? null,
        commits: parts.commits,
        excludeFiles: parts.excludeFiles,
        gitAiNotes: parts.gitAiNotes,
        unreadableFiles: parts.unreadableFiles,
        bounds: parts.bounds,
        maxFiles,
        emit,
        logger: parts.logger,
        signal,
      });
      // Lines that fail or stop leave the strategies without readings, never waiting for them.
      blamed.catch(() => range?.settle(undefined));
      return blamed;
    },
  };
}

/** A range's readings, told as soon as its own commits are read (before the head's blame ends); null without readers or for `--since`. */
function rangeReadings(
  parts: LineReaderParts,
): { early: Promise<AddedLineReadings | undefined>; settle: (readings: AddedLineReadings | undefined) => void } | null {
  if (!parts.range || !parts.readers?.length) return null;
  let settle: (readings: AddedLineReadings | undefined) => void = () => undefined;
  const early = new Promise<AddedLineReadings | undefined>((resolve) => {
    settle = resolve;
  });
  return { early, settle };
}
