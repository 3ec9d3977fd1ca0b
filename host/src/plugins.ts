import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadPlugins, type LoadPluginsResult } from '@cadence/plugin-loader';
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
  /** The configuration's `plugins:` list. */
  readonly configured: readonly string[];
  /** The configuration file's path (its folder resolves relative `plugins:` entries), or null. */
  readonly configPath: string | null;
  /** The working directory: relative entries without a file, and where discovery starts. */
  readonly cwd: string;
  readonly logger?: PluginLogger;
  readonly throwOnRequiredFailure?: boolean;
}

/** Every plugin the host runs: built-ins, `plugins:` entries and discovered `cadence-plugin` packages. */
export function loadHostPlugins(options: HostPluginOptions): Promise<LoadPluginsResult> {
  return loadPlugins({
    builtins: BUILTIN_PLUGINS,
    hostDir: HOST_DIR,
    configured: options.configured,
    configDir: options.configPath ? path.dirname(options.configPath) : options.cwd,
    discoverFrom: options.cwd,
    ...(options.logger ? { logger: options.logger } : {}),
    ...(options.throwOnRequiredFailure !== undefined ? { throwOnRequiredFailure: options.throwOnRequiredFailure } : {}),
  });
}
