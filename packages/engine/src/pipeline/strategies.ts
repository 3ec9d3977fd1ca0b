import type { AddedLinesReader, AnalysisContext, AnalysisEvent, RepositoryStrategy } from '@cadence-detect/plugin-sdk';
import { throwIfCancelled } from '../cancellation.js';
import type { PreparedSource } from '../prepared-source.js';
import { reportStrategyRun, type StrategyReport } from '../strategy-outcomes.js';
import { runStrategy } from '../strategy-runner.js';
import { diffExcerptReader, NO_OPTIONS } from './analysis-context.js';
import type { EngineParts } from './engine-parts.js';
import type { RegisteredStrategy } from '../strategy-registry.js';

/** Detection events a stream carries at most: the result holds them all. */
const MAX_DETECTION_EVENTS = 500;

/**
 * Every enabled strategy that applies to the source, one after another, each within its time
 * budget and isolated (a failure is its report's error); `detection` and `strategyResult` taps see
 * copies, and the stream gets progress and detection events.
 */
export async function runStrategies(
  parts: EngineParts,
  source: PreparedSource,
  context: AnalysisContext,
  emit: (e: AnalysisEvent) => void,
  addedLines?: AddedLineReadingsOf,
): Promise<StrategyReport[]> {
  const applicable = parts.enabled.filter((r) => r.info.appliesTo === source.kind);
  const total = source.kind === 'repository' ? source.commits.length : 0;
  const reports: StrategyReport[] = [];
  let detectionEvents = 0;
  let done = 0;
  const runOne = async (strategy: RegisteredStrategy, readings?: ReadonlyMap<string, number>): Promise<void> => {
    throwIfCancelled(context.signal);
    // The strategy sees its own plugin's options and logger; the rest of the context is the job's.
    const own = strategy.owner;
    // Its signal is its own: the job's, and its budget's (strategy-runner.ts).
    const strategyContext = (signal: AbortSignal): AnalysisContext =>
      Object.freeze({
        ...context,
        signal,
        ...(source.kind === 'repository' ? { diffExcerpt: diffExcerptReader(source, signal) } : {}),
        ...(readings ? { addedLineReadings: readings } : {}),
        options: own?.options ?? NO_OPTIONS,
        logger: own ? (parts.pluginLoggers.get(own) ?? context.logger) : context.logger,
      });
    const run = await runStrategy(strategy.strategy, strategyContext, context.signal, parts.budgetMs);
    if (!run.ok)
      parts.log.warn('strategy failed', {
        strategy: strategy.info.name,
        error: run.error,
        duration_ms: run.durationMs,
      });
    const report = reportStrategyRun(strategy, run);
    reports[applicable.indexOf(strategy)] = report;
    detectionEvents = announceDetections(parts, report, context, emit, detectionEvents);
    parts.hooks.strategyResult.call({ ...report.result }, context);
    emit(progressEvent(source.kind, report, strategy, { done: ++done, of: applicable.length, total }));
  };
  // A strategy that reads added lines runs once the line pass has read them, after the others (which
  // run beside the pass); its budget counts from then.
  const readsLines = (r: RegisteredStrategy): AddedLinesReader | undefined =>
    addedLines && r.info.appliesTo === 'repository' ? (r.strategy as RepositoryStrategy).addedLines : undefined;
  for (const strategy of applicable.filter((r) => !readsLines(r))) await runOne(strategy);
  for (const strategy of applicable) {
    const reader = readsLines(strategy);
    if (reader && addedLines) await runOne(strategy, await addedLines(reader.key));
  }
  return reports;
}

/** The readings of one reader (by key), once the line pass has them; undefined without lines. */
export type AddedLineReadingsOf = (key: string) => Promise<ReadonlyMap<string, number> | undefined>;

function progressEvent(
  kind: PreparedSource['kind'],
  report: StrategyReport,
  strategy: RegisteredStrategy,
  count: { readonly done: number; readonly of: number; readonly total: number },
): AnalysisEvent {
  return kind === 'repository'
    ? {
        event: 'progress',
        // Every commit was read and this strategy has judged them all: the count rose by commit while reading.
        commits_analyzed: count.total,
        total_commits: count.total,
        strategies_done: count.done,
        strategies_total: count.of,
        strategy: strategy.info.name,
        detections: report.result.detections,
      }
    : {
        event: 'strategy',
        name: strategy.info.name,
        score: report.result.score,
        strategy: strategy.info.name,
        detections: report.result.detections,
      };
}

/**
 * A strategy's detections to the `detection` taps (each a copy: a plugin that edits what it is shown
 * changes nothing; refineResult is the one place for that) and, up to MAX_DETECTION_EVENTS in all,
 * to the stream. Returns the stream's count so far.
 */
function announceDetections(
  parts: EngineParts,
  report: StrategyReport,
  context: AnalysisContext,
  emit: (e: AnalysisEvent) => void,
  sent: number,
): number {
  let count = sent;
  for (const detection of report.detections) {
    parts.hooks.detection.call({ ...detection }, context);
    if (count++ < MAX_DETECTION_EVENTS) {
      emit({
        event: 'detection',
        ...(detection.commit !== undefined ? { commit: detection.commit } : {}),
        ...(detection.element !== undefined ? { element: detection.element } : {}),
        suspicion: detection.message,
        strategy: detection.strategy,
        severity: detection.severity,
      });
    }
  }
  return count;
}
