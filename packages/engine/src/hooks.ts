import { AsyncParallelHook, AsyncSeriesHook, AsyncSeriesWaterfallHook, SyncHook } from './vendor/tapable.js';
import type {
  AnalysisContext,
  AnalysisRequest,
  AnalysisResult,
  Detection,
  EngineHooks,
  JobFailure,
  JobStart,
  RequestPreparation,
  StrategyRegistrar,
  StrategyResult,
} from '@cadence-detect/plugin-sdk';

/**
 * Every hook of a job, declared in one place and frozen (as webpack's Compiler does): reading this
 * function tells a plugin author everything they can tap. The argument names document each hook;
 * packages/plugin-sdk/src/hooks.ts says when each one runs.
 */
export function createHooks(): EngineHooks {
  return Object.freeze({
    registerStrategies: new SyncHook<[StrategyRegistrar]>(['registrar']),
    jobStart: new AsyncParallelHook<[JobStart]>(['start']),
    jobFailed: new AsyncParallelHook<[JobFailure]>(['failure']),
    prepareRequest: new AsyncSeriesWaterfallHook<[AnalysisRequest, RequestPreparation]>(['request', 'preparation']),
    beforeAnalysis: new AsyncSeriesHook<[AnalysisContext]>(['context']),
    strategyResult: new SyncHook<[Readonly<StrategyResult>, AnalysisContext]>(['strategyResult', 'context']),
    detection: new SyncHook<[Readonly<Detection>, AnalysisContext]>(['detection', 'context']),
    refineResult: new AsyncSeriesWaterfallHook<[AnalysisResult, AnalysisContext]>(['result', 'context']),
    report: new AsyncSeriesHook<[AnalysisResult, AnalysisContext]>(['result', 'context']),
  });
}
