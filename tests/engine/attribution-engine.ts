import attribution from '@cadence-detect/plugin-attribution';
import { defaultConfig, toPluginConfigView } from '@cadence-detect/config';
import { createEngine, silentEngineLogger, type EngineConfig } from '@cadence-detect/engine';
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
 * A repository analysis by the engine with explicit attribution only: no model and no heuristic
 * strategy, so every commit that is not attributed or automation has probability 0 and each
 * figure a test checks is exact.
 */
export async function analyzeWithAttribution(request: AnalysisRequest): Promise<RepositoryResult> {
  const engine = createEngine({
    config: { limits: TEST_LIMITS, git: { depth: 0 } },
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
  return (await engine.analyze(request, { network: null, allowLocalPaths: true })) as RepositoryResult;
}
