import type {
  AnalysisContext,
  AnalysisEvent,
  AuthorshipLog,
  JobInfo,
  PluginConfigView,
  ReportOutcome,
  Thresholds,
} from '@cadence-detect/plugin-sdk';
import type { EngineLogger } from '../engine-logger.js';
import type { PreparedRepository, PreparedSource } from '../prepared-source.js';

export const NO_OPTIONS: Readonly<Record<string, unknown>> = Object.freeze({});
const NO_NOTES: ReadonlyMap<string, string> = new Map();
const NO_LOGS: ReadonlyMap<string, AuthorshipLog> = new Map();
const DEFAULT_DIFF_EXCERPT_BYTES = 16 * 1024;

/** `context.diffExcerpt`: the prepared repository's excerpts, read under `signal` (the job's, or a strategy's own). */
export function diffExcerptReader(
  source: PreparedRepository,
  signal: AbortSignal,
): (hash: string, maxBytes?: number) => Promise<string> {
  return (hash, maxBytes = DEFAULT_DIFF_EXCERPT_BYTES) => source.diffExcerpt(hash, maxBytes, signal);
}

export interface ContextParts {
  readonly signal: AbortSignal;
  readonly view: PluginConfigView;
  readonly thresholds: Thresholds;
  readonly emit: (event: AnalysisEvent) => void;
  readonly logger: EngineLogger;
  readonly job: JobInfo | null;
  readonly recordReport: (outcome: ReportOutcome) => void;
  /** `context.keepOutOfCache`: where the analysis's result would be kept. */
  readonly keepOutOfCache?: (reason: string) => void;
}

/** The context plugins' hooks and strategies see: the source, the job's view of the configuration, its events. */
export function buildContext(source: PreparedSource, parts: ContextParts): AnalysisContext {
  const common = {
    signal: parts.signal,
    logger: parts.logger,
    events: { emit: parts.emit },
    config: parts.view,
    options: NO_OPTIONS,
    scratch: new Map<string, unknown>(),
    job: parts.job,
    recordReport: parts.recordReport,
    ...(parts.keepOutOfCache ? { keepOutOfCache: parts.keepOutOfCache } : {}),
  };
  if (source.kind === 'repository') {
    return Object.freeze({
      ...common,
      kind: 'repository' as const,
      source: source.info,
      commits: source.commits,
      stats: source.stats,
      thresholds: parts.thresholds,
      aiNotes: source.aiNotes ?? NO_NOTES,
      authorshipLogs: source.authorshipLogs ?? NO_LOGS,
      ...(source.requestCommits ? { requestCommits: source.requestCommits } : {}),
      diffExcerpt: diffExcerptReader(source, parts.signal),
    });
  }
  return Object.freeze({ ...common, kind: 'website' as const, source: source.info, document: source.document });
}
