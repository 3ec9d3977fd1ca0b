import {
  PLUGIN_API_VERSION,
  type AnalysisResult,
  type EngineHooks,
  type PluginConfigView,
  type Thresholds,
} from '@cadence-detect/plugin-sdk';
import type { LoadedPlugin } from '@cadence-detect/plugin-loader';
import type { AnalysisRequest, AnalyzeOptions } from './analysis-request.js';
import { DEFAULT_ASSESSMENT_BANDS } from './assessment.js';
import { configFingerprint } from './cache-key.js';
import type { EngineConfig } from './engine-config.js';
import type { EngineLogger } from './engine-logger.js';
import { excludedAuthorMatcher } from './excluded-authors.js';
import { frozenCopy } from './frozen-view.js';
import { createHooks } from './hooks.js';
import { NO_OPTIONS } from './pipeline/analysis-context.js';
import { analyzeSource } from './pipeline/analyze-source.js';
import type { EngineParts } from './pipeline/engine-parts.js';
import { startRun } from './pipeline/run-context.js';
import { runAnalysis } from './pipeline/run-analysis.js';
import type { PreparedSource } from './prepared-source.js';
import { isolateSideEffectTaps } from './separate-taps.js';
import { applyPlugins, type StrategyInfo } from './strategy-registry.js';

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
  analyzeSource(
    source: PreparedSource,
    options: Omit<AnalyzeOptions, 'network' | 'allowLocalPaths'>,
    thresholds?: Partial<Thresholds>,
  ): Promise<AnalysisResult>;
}

/**
 * The hooks made and the plugins applied, once; then each analysis runs the stages of `pipeline/`
 * (prepare, acquire, cache, strategies, assemble, refine, report) over one run context.
 */
export function createEngine(options: EngineOptions): Engine {
  const { config, logger } = options;
  const pluginConfig = frozenCopy(options.pluginConfig);
  const log = logger.child('engine');
  const hooks = createHooks();
  isolateSideEffectTaps(hooks, log);
  const pluginLoggers = new Map(options.plugins.map((loaded) => [loaded, logger.child(loaded.plugin.name)]));
  const registered = applyPlugins(hooks, options.plugins, (loaded) => {
    loaded.plugin.apply(hooks, {
      apiVersion: PLUGIN_API_VERSION,
      config: pluginConfig,
      logger: pluginLoggers.get(loaded) ?? logger.child(loaded.plugin.name),
      options: loaded.options ?? NO_OPTIONS,
    });
  });
  const disabled = new Set(pluginConfig.strategies.disabled);
  const enabled = registered.filter((r) => !disabled.has(r.info.name));
  const bands = { ...(config.assessment ?? DEFAULT_ASSESSMENT_BANDS) };
  const parts: EngineParts = {
    hooks,
    config,
    pluginConfig,
    log,
    gitLog: logger.child('git-source'),
    pluginLoggers,
    enabled,
    budgetMs: config.limits.strategy_timeout_seconds * 1000,
    bands,
    fingerprint: configFingerprint(pluginConfig, options.plugins, enabled, bands, config.lines?.enabled !== false),
    isExcludedAuthor: excludedAuthorMatcher(pluginConfig.exclude_authors ?? []),
  };
  return {
    hooks,
    strategies: () => registered.map((r) => ({ ...r.info, enabled: !disabled.has(r.info.name) })),
    plugins: () => options.plugins,
    analyze: (request, opts) => runAnalysis(parts, request, opts),
    analyzeSource: (source, opts, thresholds) => analyzeSource(parts, source, startRun(opts), { thresholds }),
  };
}
