import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { toPluginConfigView, type CadenceConfig } from '@cadence/config';
import { installationNodeModules, loadPlugins, resolvePluginOptions, type LoadPluginsResult } from '@cadence/plugin-loader';
import type { PluginLogger } from '@cadence/plugin-sdk';

/**
 * The built-in strategies are ordinary plugin packages, loaded by the same loader as third-party
 * ones (resolved from the host package, as its dependencies).
 */
export const BUILTIN_PLUGINS: readonly string[] = [
  '@cadence/plugin-attribution',
  '@cadence/plugin-commit-model',
  '@cadence/plugin-velocity',
  '@cadence/plugin-timing',
  '@cadence/plugin-size',
  '@cadence/plugin-website-signature',
  '@cadence/plugin-ai-assist',
];

const HOST_DIR = path.resolve(fileURLToPath(new URL('.', import.meta.url)), '..');

export interface HostPluginOptions {
  /** The configuration's `plugins:` list: only ever from a file the user chose (see @cadence/config). */
  readonly configured: CadenceConfig['plugins'];
  /** `plugin_options`: checked against each plugin's schema (PluginOptionsError, exit 2). */
  readonly pluginOptions?: CadenceConfig['plugin_options'];
  /** The folder of the file that set `plugins:` (relative entries resolve from it), or null. */
  readonly pluginBase: string | null;
  readonly logger?: PluginLogger;
  readonly throwOnRequiredFailure?: boolean;
}

/**
 * Options by plugin name: `plugin_options`, plus the `ai:` section (CADENCE_AI_* in the environment),
 * which keeps its keys and goes to the AI plugin through the same mechanism as any plugin's options.
 */
export function hostPluginOptions(config: CadenceConfig): CadenceConfig['plugin_options'] {
  const ai = { ...toPluginConfigView(config).ai, ...config.plugin_options['ai-assist'] };
  return { ...config.plugin_options, 'ai-assist': ai };
}

/**
 * Every plugin the host runs: built-ins, `plugins:` entries and `cadence-plugin` packages discovered
 * in the installation the host runs from. Nothing depends on the working directory: `cadence
 * analyze .` in a cloned repository must not import that repository's code.
 */
export async function loadHostPlugins(options: HostPluginOptions): Promise<LoadPluginsResult> {
  const specifiers = options.configured.map((entry) => (typeof entry === 'string' ? entry : entry.name));
  const inline = new Map(options.configured.flatMap((entry) => (typeof entry === 'object' && entry.options ? [[entry.name, entry.options] as const] : [])));
  const loaded = await loadPlugins({
    builtins: BUILTIN_PLUGINS,
    hostDir: HOST_DIR,
    configured: specifiers,
    configDir: options.pluginBase ?? HOST_DIR,
    discoverIn: installationNodeModules(HOST_DIR),
    ...(options.logger ? { logger: options.logger } : {}),
    ...(options.throwOnRequiredFailure !== undefined ? { throwOnRequiredFailure: options.throwOnRequiredFailure } : {}),
  });
  return { ...loaded, plugins: resolvePluginOptions(loaded.plugins, { sections: options.pluginOptions ?? {}, inline }) };
}
