import { settingsKeyOf } from '@cadence-detect/plugin-sdk';
import type { LoadedPlugin } from '@cadence-detect/plugin-loader';
import { createLogger } from '@cadence-detect/logger';
import { CliError } from '../exit-codes.js';
import { loadCliConfig } from '../load-config.js';
import type { CliIo } from '../io.js';
import { loadHostPlugins } from '../../plugins.js';
import { engineFromConfig } from '../../engine-setup.js';
import { errorMessage } from '@cadence-detect/errors';

/** `cadence plugins`: what would load, from where, and why not. */
export async function runPlugins(options: { config?: string }, io: CliIo): Promise<void> {
  const { config: given, pluginBase } = await loadCliConfig(io, options.config);
  const logger = createLogger({ level: 'error', stream: io.stderr });
  // Refused plugin options (PluginOptionsError) end the command with exit 2 (cli/exit-codes.ts).
  const { plugins, entries, config } = await loadHostPlugins({
    config: given,
    env: io.env,
    pluginBase,
    throwOnRequiredFailure: false,
  });
  let engine;
  try {
    engine = engineFromConfig(config, logger, plugins);
  } catch (error) {
    // A plugin that refuses its configuration as it starts (an unreadable forges.github.private_key_path).
    throw new CliError('usage', errorMessage(error));
  }
  const strategies = engine.strategies();
  // Columns as wide as their longest entry: a long package name never pushes the rest out of line.
  const width = (values: readonly string[], least: number): number => Math.max(least, ...values.map((v) => v.length));
  const nameWidth = width(
    entries.map((e) => e.packageName ?? e.specifier),
    36,
  );
  const versionWidth = width(
    entries.map((e) => e.version ?? '-'),
    8,
  );
  const row = (status: string, name: string, version: string, source: string, where: string): string =>
    `${status.padEnd(12)} ${name.padEnd(nameWidth)} ${version.padEnd(versionWidth)} ${source.padEnd(10)} ${where}\n`;
  io.stdout.write(row('STATUS', 'PACKAGE', 'VERSION', 'SOURCE', 'WHERE'));
  for (const entry of entries) {
    const where = entry.path ?? entry.specifier;
    io.stdout.write(row(entry.status, entry.packageName ?? entry.specifier, entry.version ?? '-', entry.source, where));
    if (entry.reason) io.stdout.write(`             ${entry.reason}\n`);
    if (entry.status !== 'loaded') continue;
    const inactive = inactiveReason(plugins.find((p) => p.packageName === entry.packageName));
    if (inactive) io.stdout.write(`             inactive: ${inactive}\n`);
    for (const s of strategies.filter((x) => x.package === entry.packageName)) {
      io.stdout.write(
        `             - ${s.name} (${s.category}, ${s.appliesTo}, weight ${s.weight})${s.enabled ? '' : ' [disabled by strategies.disabled]'}: ${s.description}${s.docsUrl ? ` (${s.docsUrl})` : ''}\n`,
      );
    }
  }
}

/** A loaded plugin that does nothing as configured: its options say `enabled: false` (the AI plugin while ai.enabled is false). */
function inactiveReason(loaded: LoadedPlugin | undefined): string | null {
  if (!loaded || loaded.options?.enabled !== false) return null;
  return `${settingsKeyOf(loaded.plugin)}.enabled is false`;
}
