import attribution from '@cadence-detect/plugin-attribution';
import { defaultConfig, toPluginConfigView } from '@cadence-detect/config';
import { createEngine, silentEngineLogger, type Engine, type EngineConfig } from '@cadence-detect/engine';
import type { AnalysisRequest, RepositoryResult } from '@cadence-detect/plugin-sdk';

/** The limits these tests run under (the configuration's own defaults are longer). */
export const TEST_LIMITS: EngineConfig['limits'] = {
  clone_timeout_seconds: 120,
  max_repo_size_mb: 2048,
  max_page_bytes: 1 << 20,
  fetch_timeout_seconds: 20,
  strategy_timeout_seconds: 30,
};

/**
 * The engine with explicit attribution only: no model and no heuristic strategy, so every commit
 * that is not attributed or automation has probability 0 and each figure a test checks is exact.
 * `extra` adds limits and the cache section a test needs.
 */
export function attributionEngine(
  extra: { readonly limits?: Partial<EngineConfig['limits']>; readonly cache?: EngineConfig['cache'] } = {},
): Engine {
  return createEngine({
    config: {
      limits: { ...TEST_LIMITS, ...extra.limits },
      git: { depth: 0 },
      ...(extra.cache ? { cache: extra.cache } : {}),
    },
    pluginConfig: toPluginConfigView(defaultConfig()),
    logger: silentEngineLogger(),
    plugins: [
      {
        plugin: attribution,
        packageName: '@cadence-detect/plugin-attribution',
        version: '0.0.0',
        source: 'builtin',
      } as never,
    ],
  });
}

/** A repository analysis by the attribution-only engine, local paths allowed. */
export async function analyzeWithAttribution(request: AnalysisRequest): Promise<RepositoryResult> {
  return (await attributionEngine().analyze(request, { network: null, allowLocalPaths: true })) as RepositoryResult;
}
