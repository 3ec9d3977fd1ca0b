import {
  DEFAULT_THRESHOLDS,
  type AnalysisResult,
  type PluginConfigView,
  type Thresholds,
} from '@cadence-detect/plugin-sdk';
import { asJobError, throwIfCancelled } from '../cancellation.js';
import { frozenCopy } from '../frozen-view.js';
import { pluginEventEmitter } from '../plugin-events.js';
import type { PreparedSource } from '../prepared-source.js';
import { buildRepositoryResult, buildWebsiteResult } from '../result-assembly.js';
import type { StrategyReport } from '../strategy-outcomes.js';
import { buildContext } from './analysis-context.js';
import type { EngineParts } from './engine-parts.js';
import { readLines, type LinesOutcome } from './lines.js';
import { refineResult } from './refine.js';
import { keepResult } from './result-cache.js';
import type { RunContext } from './run-context.js';
import { runStrategies, type AddedLineReadingsOf } from './strategies.js';

export interface SourceAnalysis {
  /** The request's own thresholds (`--suspicious-additions`), over the configuration's. */
  readonly thresholds?: Partial<Thresholds> | undefined;
  /** Where the result is kept; none: not kept. */
  readonly cacheKey?: string;
  readonly authors?: 'top' | 'all' | undefined;
}

/**
 * A ready source through the rest of the pipeline: `beforeAnalysis`, the strategies (the lines read
 * beside them), the result assembled, refined and reported, then kept. The source is disposed of
 * whatever happens; a failure leaves as a job error.
 */
export async function analyzeSource(
  parts: EngineParts,
  source: PreparedSource,
  run: RunContext,
  analysis: SourceAnalysis = {},
): Promise<AnalysisResult> {
  const { signal } = run;
  try {
    throwIfCancelled(signal);
    const thresholds: Thresholds = { ...parts.pluginConfig.thresholds, ...definedOnly(analysis.thresholds) };
    // Per job and deep: nothing a plugin writes reaches the next job or the cache key.
    const view: PluginConfigView = frozenCopy({ ...parts.pluginConfig, thresholds });
    const emit = pluginEventEmitter(run.emit, (message, fields) => parts.log.warn(message, fields));
    const context = buildContext(source, {
      signal,
      view,
      thresholds: view.thresholds,
      emit,
      logger: parts.log,
      job: run.job,
      recordReport: run.recordReport,
      keepOutOfCache: run.keepOutOfCache,
    });
    await parts.hooks.beforeAnalysis.promise(context);
    // Blame runs beside the strategies (other git processes); a failure drops the lines, never the verdict.
    const lines = source.kind === 'repository' ? readLines(source, signal, parts.log, run.job?.deadline) : undefined;
    // Marked handled now: it is awaited (and its failure said) after the strategies.
    lines?.catch(() => undefined);
    const reports = await runStrategies(parts, source, context, run.emit, lines && addedLinesOf(source, lines));
    const assembled = await assemble(parts, source, reports, thresholds, analysis.authors ?? 'top', lines);
    const result = await refineResult(parts, assembled, context);
    throwIfCancelled(signal);
    await parts.hooks.report.promise(result, context);
    keepResult(analysis.cacheKey, result, run);
    return result;
  } catch (error) {
    throw asJobError(error, signal);
  } finally {
    await source
      .dispose()
      .catch((error: unknown) => parts.log.warn('could not remove a source', { error: String(error) }));
  }
}

async function assemble(
  parts: EngineParts,
  source: PreparedSource,
  reports: StrategyReport[],
  thresholds: Thresholds,
  authors: 'top' | 'all',
  lines: Promise<LinesOutcome> | undefined,
): Promise<AnalysisResult> {
  if (source.kind !== 'repository') return buildWebsiteResult(source, reports);
  const settings = {
    bands: parts.bands,
    thresholds,
    thresholdsOverridden: !sameThresholds(thresholds, DEFAULT_THRESHOLDS),
    allAuthors: authors === 'all',
    ...(parts.isExcludedAuthor ? { isExcludedAuthor: parts.isExcludedAuthor } : {}),
  };
  return buildRepositoryResult(source, reports, settings, await lines);
}

/**
 * A reader's numbers as soon as the one pass has them (the lines at the head are still being
 * blamed), or with the lines; none when the lines were skipped, dropped for time or failed.
 */
function addedLinesOf(source: PreparedSource, lines: Promise<LinesOutcome>): AddedLineReadingsOf {
  const withLines = lines.then(
    (outcome) => (outcome && 'head' in outcome ? outcome.addedLineReadings : undefined),
    () => undefined,
  );
  const early = source.kind === 'repository' ? source.addedLineReadings?.() : undefined;
  // `--since` blames instead of replaying, and reads no added lines: there are no readings to wait for.
  if (!early) return () => Promise.resolve(undefined);
  // The first to answer: the pass's readings, or the lines (dropped for time: none). A pass that
  // failed leaves it to the lines, which read again without the files it could not read.
  const readings = Promise.race([early.then((found) => found ?? withLines), withLines]);
  return async (key) => (await readings)?.get(key);
}

function sameThresholds(a: Thresholds, b: Thresholds): boolean {
  return (Object.keys(b) as (keyof Thresholds)[]).every((key) => a[key] === b[key]);
}

function definedOnly<T extends object>(value: Partial<T> | undefined): Partial<T> {
  if (!value) return {};
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined && v !== null)) as Partial<T>;
}
