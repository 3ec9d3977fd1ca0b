import {
  PLUGIN_API_VERSION,
  DEFAULT_THRESHOLDS,
  clampScore,
  type AnalysisContext,
  type AnalysisEvent,
  type AnalysisResult,
  type EngineHooks,
  type JobFailure,
  type JobInfo,
  type JobStart,
  type PluginConfigView,
  type ReportOutcome,
  type Thresholds,
} from '@cadence-detect/plugin-sdk';
import { redactCredentials } from '@cadence-detect/errors';
import type { AnalysisRequest, AnalyzeOptions, EmittedEvent } from './analysis-request.js';
import { excludedAuthorMatcher } from './excluded-authors.js';
import { assessRepository, assessWebsite, DEFAULT_ASSESSMENT_BANDS } from './assessment.js';
import { asJobError, throwIfCancelled } from './cancellation.js';
import type { EngineConfig } from './engine-config.js';
import type { EngineLogger } from './engine-logger.js';
import { frozenCopy } from './frozen-view.js';
import { createHooks } from './hooks.js';
import { pluginEventEmitter } from './plugin-events.js';
import type { LoadedPlugin } from '@cadence-detect/plugin-loader';
import type { LineReadings } from './line-shares.js';
import type { PreparedRepository, PreparedSource } from './prepared-source.js';
import { buildRepositoryResult, buildWebsiteResult } from './result-assembly.js';
import { acquireRepository } from './sources/repository-source.js';
import { cacheKeyOf, configFingerprint, repositoryCacheKey } from './cache-key.js';
import { reportStrategyRun, type StrategyReport } from './strategy-outcomes.js';
import { applyPlugins, type StrategyInfo } from './strategy-registry.js';
import { runStrategy } from './strategy-runner.js';
import { isolateSideEffectTaps } from './separate-taps.js';

export interface EngineOptions {
  readonly config: EngineConfig;
  /** The configuration as plugins see it (`toPluginConfigView` of @cadence-detect/config). */
  readonly pluginConfig: PluginConfigView;
  readonly logger: EngineLogger;
  readonly plugins: readonly LoadedPlugin[];
}

export interface Engine {
  readonly hooks: EngineHooks;
  /** Every registered strategy with its plugin (disabled ones included, flagged). */
  strategies(): (StrategyInfo & { readonly enabled: boolean })[];
  plugins(): readonly LoadedPlugin[];
  /** Acquires the source (clone or fetch), runs every enabled strategy and the hooks, returns the result. */
  analyze(request: AnalysisRequest, options: AnalyzeOptions): Promise<AnalysisResult>;
  /** Runs the analysis on a source made ready by hand (the plugin testkit); disposes it at the end. */
  analyzeSource(source: PreparedSource, options: Omit<AnalyzeOptions, 'network' | 'allowLocalPaths'>, thresholds?: Partial<Thresholds>): Promise<AnalysisResult>;
}

const NO_OPTIONS: Readonly<Record<string, unknown>> = Object.freeze({});
const NO_NOTES: ReadonlyMap<string, string> = new Map();

/** At most this many `detection` events per job: a long history can have thousands of hits. */
const MAX_DETECTION_EVENTS = 500;
const DEFAULT_DIFF_EXCERPT_BYTES = 16 * 1024;

/** How long before a job's deadline the lines stop being waited for: the verdict, its refinement and its reports keep that. */
const LINES_RESERVE_MS = 10_000;

export function createEngine(options: EngineOptions): Engine {
  const { config, logger } = options;
  // Frozen through and through: a plugin's apply() or a tap cannot change what later jobs read.
  const pluginConfig = frozenCopy(options.pluginConfig);
  const log = logger.child('engine');
  const gitLog = logger.child('git-source');
  const hooks = createHooks();
  isolateSideEffectTaps(hooks, log);
  // One child logger per plugin (component = its name), for apply and for its strategies' contexts.
  const pluginLoggers = new Map(options.plugins.map((loaded) => [loaded, logger.child(loaded.plugin.name)]));
  const registered = applyPlugins(hooks, options.plugins, (loaded) => {
    loaded.plugin.apply(hooks, {
      apiVersion: PLUGIN_API_VERSION,
      config: pluginConfig,
      logger: pluginLoggers.get(loaded)!,
      options: loaded.options ?? NO_OPTIONS,
    });
  });
  const disabled = new Set(pluginConfig.strategies.disabled);
  const enabled = registered.filter((r) => !disabled.has(r.info.name));
  const budgetMs = config.limits.strategy_timeout_seconds * 1000;
  const bands = { ...(config.assessment ?? DEFAULT_ASSESSMENT_BANDS) };
  const fingerprint = configFingerprint(pluginConfig, options.plugins, enabled, bands);
  const isExcludedAuthor = excludedAuthorMatcher(pluginConfig.exclude_authors ?? []);

  async function analyzeSource(
    source: PreparedSource,
    opts: Omit<AnalyzeOptions, 'network' | 'allowLocalPaths'>,
    thresholdOverrides?: Partial<Thresholds>,
    cacheKey?: string,
    authorsWanted: 'top' | 'all' = 'top',
  ): Promise<AnalysisResult> {
    const signal = opts.signal ?? new AbortController().signal;
    const emit = eventEmitter(opts.onEvent);
    try {
      throwIfCancelled(signal);
      const thresholds: Thresholds = { ...pluginConfig.thresholds, ...definedOnly(thresholdOverrides) };
      // Per job and deep: nothing a plugin writes reaches the next job or the cache key.
      const view: PluginConfigView = frozenCopy({ ...pluginConfig, thresholds });
      const context = buildContext(source, { signal, view, thresholds: view.thresholds, emit: pluginEventEmitter(emit, (message, fields) => log.warn(message, fields)), logger: log, job: opts.job ?? null, recordReport: reportRecorder(opts) });
      await hooks.beforeAnalysis.promise(context);
      // Blame runs beside the strategies (other git processes); a failure drops the lines, never the verdict.
      const lines = source.kind === 'repository' ? readLines(source, signal, opts.job?.deadline) : undefined;
      lines?.catch(() => undefined);
      const reports = await runAll(source, context, emit);
      let result =
        source.kind === 'repository'
          ? buildRepositoryResult(source, reports, { bands, thresholds, thresholdsOverridden: !sameThresholds(thresholds, DEFAULT_THRESHOLDS), allAuthors: authorsWanted === 'all', ...(isExcludedAuthor ? { isExcludedAuthor } : {}) }, await lines)
          : buildWebsiteResult(source, reports);
      result = await refine(result, context);
      throwIfCancelled(signal);
      await runReportHook(result, context);
      // A result whose AI step failed is not kept: the failure is usually transient.
      if (cacheKey && !result.ai?.error) void Promise.resolve(opts.cache?.set(cacheKey, result)).catch(() => undefined);
      return result;
    } catch (error) {
      throw asJobError(error, signal);
    } finally {
      await source.dispose().catch((error: unknown) => log.warn('could not remove a source', { error: String(error) }));
    }
  }

  /**
   * The lines of a repository source, or why there are none (a failure is logged and said, not
   * thrown). A job with a deadline waits for them only until LINES_RESERVE_MS before it: then they
   * are stopped and dropped with a reason, and the verdict keeps the time that is left.
   */
  async function readLines(source: PreparedRepository, signal: AbortSignal, deadline?: number): Promise<LineReadings | { skipped: string } | undefined> {
    if (!source.readLines) return source.linesSkipped ? { skipped: source.linesSkipped } : undefined;
    const own = new AbortController();
    const stop = (): void => own.abort(signal.reason);
    signal.addEventListener('abort', stop, { once: true });
    const late = { skipped: "the job's time ran short: lines were dropped to keep the verdict" } as const;
    let timer: NodeJS.Timeout | undefined;
    const cutOff = deadline === undefined ? null : new Promise<typeof late>((resolve) => {
      timer = setTimeout(() => {
        own.abort(new Error('lines out of time'));
        resolve(late);
      }, Math.max(0, deadline - LINES_RESERVE_MS - Date.now()));
    });
    try {
      const reading = source.readLines(own.signal);
      reading.catch(() => undefined);
      return await (cutOff ? Promise.race([reading, cutOff]) : reading);
    } catch (error) {
      throwIfCancelled(signal);
      if (own.signal.aborted) return late;
      const reason = error instanceof Error && error.name === 'LinesSkipped' ? error.message : `lines could not be counted: ${error instanceof Error ? error.message : String(error)}`;
      if (error instanceof Error && error.name !== 'LinesSkipped') log.warn('lines not counted', { error: error.message });
      return { skipped: reason };
    } finally {
      clearTimeout(timer);
      signal.removeEventListener('abort', stop);
    }
  }

  async function runAll(source: PreparedSource, context: AnalysisContext, emit: (e: AnalysisEvent) => void): Promise<StrategyReport[]> {
    const applicable = enabled.filter((r) => r.info.appliesTo === source.kind);
    const total = source.kind === 'repository' ? source.commits.length : 0;
    const reports: StrategyReport[] = [];
    let detectionEvents = 0;
    for (const [index, strategy] of applicable.entries()) {
      throwIfCancelled(context.signal);
      // The strategy sees its own plugin's options and logger; the rest of the context is the job's.
      const own = strategy.owner;
      const strategyContext = Object.freeze({ ...context, options: own?.options ?? NO_OPTIONS, logger: own ? pluginLoggers.get(own) ?? context.logger : context.logger }) as AnalysisContext;
      const run = await runStrategy(strategy.strategy, strategyContext, budgetMs);
      if (!run.ok) log.warn('strategy failed', { strategy: strategy.info.name, error: run.error, duration_ms: run.durationMs });
      const report = reportStrategyRun(strategy, run);
      reports.push(report);
      for (const detection of report.detections) {
        // A copy: a plugin that edits what it is shown changes nothing (refineResult is the one place for that).
        hooks.detection.call({ ...detection }, context);
        if (detectionEvents++ < MAX_DETECTION_EVENTS) {
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
      hooks.strategyResult.call({ ...report.result }, context);
      if (source.kind === 'repository') {
        emit({
          event: 'progress',
          commits_analyzed: Math.round((total * (index + 1)) / applicable.length),
          total_commits: total,
          strategy: strategy.info.name,
          detections: report.result.detections,
        });
      } else {
        emit({ event: 'strategy', name: strategy.info.name, score: report.result.score, strategy: strategy.info.name, detections: report.result.detections });
      }
    }
    return reports;
  }

  /** The one place plugins change other strategies' findings; scores stay consistent afterwards. */
  async function refine(result: AnalysisResult, context: AnalysisContext): Promise<AnalysisResult> {
    const refined = await hooks.refineResult.promise(result, context);
    const score = clampScore(refined.overall_score);
    if (refined.source_type === 'git') {
      return { ...refined, overall_score: score, suspicion_score: score, assessment: assessRepository(score, bands) };
    }
    return { ...refined, overall_score: score, suspicion_score: score, assessment: assessWebsite(score) };
  }

  /** A job's reporters start (a `pending` status); the analysis does not wait for them. */
  function startJob(request: AnalysisRequest, opts: AnalyzeOptions): void {
    if (!opts.job) return;
    const recordReport = reportRecorder(opts);
    const start: JobStart = Object.freeze({ job: opts.job, request: Object.freeze({ kind: request.kind, url: redactCredentials(request.url) }), logger: log, recordReport });
    void hooks.jobStart.promise(start);
  }

  /**
   * `report` taps are side effects, each on its own: one that throws is recorded under its plugin's
   * name, the taps after it still run, and the result stands.
   */
  async function runReportHook(result: AnalysisResult, context: AnalysisContext): Promise<void> {
    await hooks.report.promise(result, context);
  }


  /** A job that ends without a result: its reporters turn `pending` into an error. Not awaited. */
  function failJob(error: unknown, opts: AnalyzeOptions): void {
    if (!opts.job) return;
    const recordReport = reportRecorder(opts);
    const failure = asJobError(error, opts.signal ?? new AbortController().signal);
    const event: JobFailure = Object.freeze({ job: opts.job, error: Object.freeze({ code: failure.code, message: redactCredentials(failure.message) }), logger: log, recordReport });
    void hooks.jobFailed.promise(event);
  }

  async function analyze(request: AnalysisRequest, opts: AnalyzeOptions): Promise<AnalysisResult> {
    startJob(request, opts);
    try {
      return await analyzeRequest(await prepare(request, opts), opts);
    } catch (error) {
      failJob(error, opts);
      throw error;
    }
  }

  /**
   * `prepareRequest` taps refine the request before the source is fetched (a forge plugin's squash
   * look-up), in the CLI and the server alike. A tap that throws is the host's flow failing: ERR_INTERNAL.
   */
  async function prepare(request: AnalysisRequest, opts: AnalyzeOptions): Promise<AnalysisRequest> {
    if (!hooks.prepareRequest.isUsed()) return request;
    const signal = opts.signal ?? new AbortController().signal;
    try {
      const prepared = await hooks.prepareRequest.promise(request, Object.freeze({ job: opts.job ?? null, signal, logger: log }));
      throwIfCancelled(signal);
      return prepared;
    } catch (error) {
      throw asJobError(error, signal);
    }
  }

  async function analyzeRequest(request: AnalysisRequest, opts: AnalyzeOptions): Promise<AnalysisResult> {
    const signal = opts.signal ?? new AbortController().signal;
    const emit = eventEmitter(opts.onEvent);
    let source: PreparedSource;
    try {
      if (request.kind === 'repository') {
        // Without a job to report to, a kept result answers as soon as the head is known: an
        // unchanged repository (a second scan) costs a fetch, not a history read.
        const early = opts.cache && !opts.job ? (info: PreparedRepository['info']) => Promise.resolve(opts.cache!.get(repositoryCacheKey(request, info, fingerprint))).catch(() => undefined) : undefined;
        const acquired = await acquireRepository(request, { ...opts, signal, emit, config, excludeFiles: pluginConfig.exclude_files, logger: gitLog, ...(early ? { answerFromCache: early } : {}) });
        if (acquired.kind === 'cached') return acquired.result;
        source = acquired;
      } else {
        // Imported for a website only: the HTML parser and the page fetcher are no repository's cost.
        const { acquireWebsite } = await import('./sources/website-source.js');
        source = await acquireWebsite(request, { ...opts, signal, emit, config, logger: log });
      }
    } catch (error) {
      throw asJobError(error, signal);
    }
    const key = cacheKeyOf(request, source, fingerprint);
    // A shared cache that cannot answer (Redis away) is a miss, never a failed analysis.
    const cached = await Promise.resolve(opts.cache?.get(key)).catch(() => undefined);
    if (cached) {
      // A job answered from the cache is still reported where its forge expects it.
      if (opts.job) {
        const view: PluginConfigView = frozenCopy(pluginConfig);
        await runReportHook(cached, buildContext(source, { signal, view, thresholds: view.thresholds, emit: () => undefined, logger: log, job: opts.job, recordReport: reportRecorder(opts) }));
      }
      await source.dispose().catch(() => undefined);
      return cached;
    }
    const thresholds = request.kind === 'repository' ? request.thresholds : undefined;
    return analyzeSource(source, { ...opts, signal }, thresholds, key, request.kind === 'repository' ? request.authors : undefined);
  }

  return {
    hooks,
    strategies: () => registered.map((r) => ({ ...r.info, enabled: !disabled.has(r.info.name) })),
    plugins: () => options.plugins,
    analyze,
    analyzeSource: (source, opts, thresholds) => analyzeSource(source, opts, thresholds),
  };
}

interface ContextParts {
  signal: AbortSignal;
  view: PluginConfigView;
  thresholds: Thresholds;
  emit: (event: AnalysisEvent) => void;
  logger: EngineLogger;
  job: JobInfo | null;
  recordReport: (outcome: ReportOutcome) => void;
}

/** The job's outcome sink, made safe: a reporter's record never throws into it. */
function reportRecorder(opts: Pick<AnalyzeOptions, 'onReport'>): (outcome: ReportOutcome) => void {
  return (outcome) => {
    try {
      opts.onReport?.(Object.freeze({ ...outcome }));
    } catch {
      // The job's record is the server's concern; a reporter cannot fail it.
    }
  };
}

function buildContext(source: PreparedSource, parts: ContextParts): AnalysisContext {
  const common = {
    signal: parts.signal,
    logger: parts.logger,
    events: { emit: parts.emit },
    config: parts.view,
    options: NO_OPTIONS,
    scratch: new Map<string, unknown>(),
    job: parts.job,
    recordReport: parts.recordReport,
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
      diffExcerpt: (hash: string, maxBytes = DEFAULT_DIFF_EXCERPT_BYTES) => source.diffExcerpt(hash, maxBytes, parts.signal),
    });
  }
  return Object.freeze({ ...common, kind: 'website' as const, source: source.info, document: source.document });
}

function eventEmitter(onEvent: ((event: EmittedEvent) => void) | undefined): (event: AnalysisEvent) => void {
  if (!onEvent) return () => undefined;
  return (event) => onEvent({ ...event, type: event.event } as EmittedEvent);
}

function sameThresholds(a: Thresholds, b: Thresholds): boolean {
  return (Object.keys(b) as (keyof Thresholds)[]).every((key) => a[key] === b[key]);
}

function definedOnly<T extends object>(value: Partial<T> | undefined): Partial<T> {
  if (!value) return {};
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined && v !== null)) as Partial<T>;
}
