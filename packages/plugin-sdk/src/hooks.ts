import type { AsyncParallelHook, AsyncSeriesHook, AsyncSeriesWaterfallHook, SyncHook } from 'tapable';
import type { AnalysisRequest } from './analysis-request.js';
import type { JobFailure, JobInfo, JobStart } from './job.js';
import type { PluginLogger } from './logger.js';
import type { AnalysisContext } from './context.js';
import type { Detection, AnalysisResult, StrategyResult } from './result.js';
import type { PluginOptions } from './options.js';
import type { Strategy } from './strategy.js';

/**
 * A strategy reads its plugin's options as `context.options`: it may be added by a plugin
 * whose options `O` give it what it reads; otherwise the argument of `add` says why not.
 * @since 1.6
 */
export type OptionsCheck<T, O> = T extends { analyze(context: infer C): unknown }
  ? C extends { readonly options: infer R }
    ? [O] extends [R]
      ? unknown
      : { readonly 'this strategy reads options its plugin does not declare': R }
    : unknown
  : unknown;

/**
 * What `registerStrategies` hands a plugin; `O` is that plugin's options.
 * @since 1.6
 */
export interface StrategyRegistrar<O extends object = PluginOptions> {
  /** Adds a strategy; a second strategy of the same name is refused with an error. */
  add<T extends Strategy>(strategy: T & OptionsCheck<T, O>): void;
}

/**
 * The documented order of `refineResult` taps (tapable's `stage`; give it as
 * `hooks.refineResult.tapPromise({ name, stage: REFINE_STAGE.ADJUST }, fn)`):
 * - SCORE (0, the default): whoever computes a score from the strategies' findings (the website
 *   page score) runs first;
 * - ADJUST (100): plugins that adjust findings or scores from evidence of their own;
 * - SECOND_OPINION (1000): the AI second opinion, which reads the result every other tap made.
 */
export const REFINE_STAGE = Object.freeze({ SCORE: 0, ADJUST: 100, SECOND_OPINION: 1000 });

/**
 * What `prepareRequest` taps get beside the request.
 * @since 1.6
 */
export interface RequestPreparation {
  /** The server's job the analysis runs for (its forge target), or null (the CLI, the testkit). */
  readonly job: JobInfo | null;
  /** The job's signal: a look-up stops with the job. */
  readonly signal: AbortSignal;
  readonly logger: PluginLogger;
}

/**
 * Every hook a plugin can tap, in the order of a job's life (the engine declares them in one place).
 *
 * - `registerStrategies` (sync): once, when the engine starts: add strategies.
 * - `jobStart` (async parallel, since 1.3): a job's analysis begins, before its source is fetched (a
 *   reporter sets a `pending` status here). The analysis does not wait for it; a tap that throws is
 *   recorded as a failed report, never a failed job.
 * - `jobFailed` (async parallel, since 1.3): a job's analysis ended without a result (clone failed,
 *   timeout, cancel): a reporter turns its `pending` status into an error. Not awaited either.
 * - `prepareRequest` (async series waterfall, since 1.6): before the source is fetched, each tap returns
 *   the (possibly refined) request: a forge plugin asks its API whether a pushed commit squashes a
 *   request and, if so, adds `squash`. A tap that throws fails the job (ERR_INTERNAL): a look-up that
 *   may fail catches its own errors and returns the request as it was.
 * - `beforeAnalysis` (async series): the context is ready (source fetched, commits read), before any strategy.
 * - `strategyResult` (sync): after each strategy, with its entry of `strategy_results`.
 * - `detection` (sync): each detection as it is found.
 * - `refineResult` (async series waterfall): after all strategies; each tap returns the (possibly changed)
 *   result. This is the one place a plugin may change other strategies' findings (the AI plugin does).
 *   Taps run by tapable `stage`, lowest first (registration order within a stage): see REFINE_STAGE.
 * - `report` (async series): the final result, read-only; for side effects such as notifications.
 *   A tap that throws is recorded as a failed report (`result.reports[]`), never a failed job; a
 *   reporter that talks to a forge starts its work and returns, recording through
 *   `context.recordReport`, so that the job's `complete` event does not wait for the forge.
 */
export interface EngineHooks<O extends object = PluginOptions> {
  /**
   * `O`, the tapping plugin's options, types what its registrar accepts.
   * @since 1.6
   */
  readonly registerStrategies: RegisterStrategiesHook<O>;
  readonly jobStart: JobStartHook;
  readonly jobFailed: JobFailedHook;
  readonly prepareRequest: PrepareRequestHook;
  readonly beforeAnalysis: BeforeAnalysisHook;
  /** A copy, typed read-only: only `refineResult` changes findings. */
  readonly strategyResult: StrategyResultHook;
  /** A copy, typed read-only: only `refineResult` changes findings. */
  readonly detection: DetectionHook;
  readonly refineResult: RefineResultHook;
  readonly report: ReportHook;
}

/*
 * Each hook's type by name (since 1.11), so that a plugin's own helpers (a function that taps
 * `report`, a test that builds one hook) import their types from the SDK alone, not from tapable.
 */
export type RegisterStrategiesHook<O extends object = PluginOptions> = SyncHook<[StrategyRegistrar<O>]>;
export type JobStartHook = AsyncParallelHook<[JobStart]>;
export type JobFailedHook = AsyncParallelHook<[JobFailure]>;
export type PrepareRequestHook = AsyncSeriesWaterfallHook<[AnalysisRequest, RequestPreparation]>;
export type BeforeAnalysisHook = AsyncSeriesHook<[AnalysisContext]>;
export type StrategyResultHook = SyncHook<[Readonly<StrategyResult>, AnalysisContext]>;
export type DetectionHook = SyncHook<[Readonly<Detection>, AnalysisContext]>;
export type RefineResultHook = AsyncSeriesWaterfallHook<[AnalysisResult, AnalysisContext]>;
export type ReportHook = AsyncSeriesHook<[AnalysisResult, AnalysisContext]>;
