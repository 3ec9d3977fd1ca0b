// The engine with every built-in repository plugin, as the benchmarks that analyze repositories use it.
import { createEngine } from '@cadence/engine';
import { loadConfig, toPluginConfigView } from '@cadence/config';
import { silentLogger } from '@cadence/logger';

export async function builtinRepositoryEngine(cwd, env = {}) {
  const plugins = await Promise.all(['attribution', 'commit-model', 'velocity', 'timing', 'size'].map(async (name) => ({
    plugin: (await import(`@cadence/plugin-${name}`)).default,
    packageName: `@cadence/plugin-${name}`,
    version: '0',
    source: 'builtin',
  })));
  const { config } = await loadConfig({ cwd, env });
  return createEngine({ config, pluginConfig: toPluginConfigView(config), logger: silentLogger(), plugins });
}
