// The engine with every built-in repository plugin, as the benchmarks that analyze repositories use it.
import { createEngine } from '@cadence-detect/engine';
import { loadConfig, toPluginConfigView } from '@cadence-detect/config';
import { silentLogger } from '@cadence-detect/logger';

export async function builtinRepositoryEngine(cwd, env = {}) {
  const plugins = await Promise.all(
    ['attribution', 'commit-model', 'velocity', 'timing', 'size'].map(async (name) => ({
      plugin: (await import(`@cadence-detect/plugin-${name}`)).default,
      packageName: `@cadence-detect/plugin-${name}`,
      version: '0',
      source: 'builtin',
    })),
  );
  const { config } = await loadConfig({ cwd, env });
  return createEngine({ config, pluginConfig: toPluginConfigView(config), logger: silentLogger(), plugins });
}
