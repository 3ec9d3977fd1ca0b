import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { installationNodeModules, loadPlugins, type LoadPluginsResult } from '@cadence/plugin-loader';
import type { PluginLogger } from '@cadence/plugin-sdk';

/**
 * The built-in strategies are ordinary plugin packages, loaded by the same loader as third-party
 * ones (resolved from the host package, as its dependencies).
 */
export const BUILTIN_PLUGINS: readonly string[] = [
  '@cadence/plugin-velocity',
  '@cadence/plugin-timing',
  '@cadence/plugin-size',
  '@cadence/plugin-website-signature',
  '@cadence/plugin-ai-assist',
];

const HOST_DIR = path.resolve(fileURLToPath(new URL('.', import.meta.url)), '..');

export interface HostPluginOptions {
  /** The configuration's `plugins:` list: only ever from a file the user chose (see @cadence/config). */
  readonly configured: readonly string[];
  /** The folder of the file that set `plugins:` (relative entries resolve from it), or null. */
  readonly pluginBase: string | null;
  readonly logger?: PluginLogger;
  readonly throwOnRequiredFailure?: boolean;
}

/**
 * Every plugin the host runs: built-ins, `plugins:` entries and `cadence-plugin` packages discovered
 * in the installation the host runs from. Nothing depends on the working directory: `cadence
 * analyze .` in a cloned repository must not import that repository's code.
 */
export function loadHostPlugins(options: HostPluginOptions): Promise<LoadPluginsResult> {
  return loadPlugins({
    builtins: BUILTIN_PLUGINS,
    hostDir: HOST_DIR,
    configured: options.configured,
    configDir: options.pluginBase ?? HOST_DIR,
    discoverIn: installationNodeModules(HOST_DIR),
    ...(options.logger ? { logger: options.logger } : {}),
    ...(options.throwOnRequiredFailure !== undefined ? { throwOnRequiredFailure: options.throwOnRequiredFailure } : {}),
  });
}
