import { createLogger } from '@cadence/logger';
import { PluginOptionsError } from '@cadence/plugin-loader';
import { CliExit } from '../io.js';
import { loadCliConfig } from '../load-config.js';
import type { CliIo } from '../io.js';
import { hostPluginOptions, loadHostPlugins } from '../../plugins.js';
import { engineFromConfig } from '../../engine-setup.js';

/** `cadence plugins`: what would load, from where, and why not. */
export async function runPlugins(options: { config?: string }, io: CliIo): Promise<void> {
  const { config, pluginBase } = await loadCliConfig(io, options.config);
  const logger = createLogger({ level: 'error', stream: io.stderr });
  let loaded;
  try {
    loaded = await loadHostPlugins({ configured: config.plugins, pluginOptions: hostPluginOptions(config), pluginBase, throwOnRequiredFailure: false });
  } catch (error) {
    if (error instanceof PluginOptionsError) throw new CliExit(2, error.message);
    throw error;
  }
  const { plugins, entries } = loaded;
  const engine = engineFromConfig(config, logger, plugins);
  const strategies = engine.strategies();
  for (const entry of entries) {
    const where = entry.path ?? entry.specifier;
    io.stdout.write(`${entry.status.padEnd(12)} ${(entry.packageName ?? entry.specifier).padEnd(36)} ${(entry.version ?? '-').padEnd(8)} ${entry.source.padEnd(10)} ${where}\n`);
    if (entry.reason) io.stdout.write(`             ${entry.reason}\n`);
    if (entry.status !== 'loaded') continue;
    for (const s of strategies.filter((x) => x.package === entry.packageName)) {
      io.stdout.write(`             - ${s.name} (${s.category}, ${s.appliesTo}, weight ${s.weight})${s.enabled ? '' : ' [disabled by strategies.disabled]'}: ${s.description}\n`);
    }
  }
}
