import { environmentName, parseValue, type CadenceConfig } from '@cadence-detect/config';
import { isRecord } from '@cadence-detect/errors';
import type { LoadedPlugin } from '@cadence-detect/plugin-loader';
import { MissingPackageError, optionalPlugins, type OptionalPlugin } from './optional-packages.js';

// Apart from optional-packages.ts, which `cadence --help` and `version` load: reading the
// configuration's rules loads the configuration package, which only a command with plugins needs.

/** The first setting that needs an optional plugin that did not load, as an error; null when none. */
export function missingOptionalPlugin(
  config: CadenceConfig,
  loaded: readonly LoadedPlugin[],
  env: NodeJS.ProcessEnv = {},
): MissingPackageError | null {
  const names = new Set(loaded.map((p) => p.plugin.name));
  for (const optional of optionalPlugins()) {
    if (names.has(optional.plugin)) continue;
    const setting = neededBy(optional, config, env);
    if (setting) return new MissingPackageError(optional.packageName, `the configuration's ${setting}`);
  }
  return null;
}

/** The setting that needs `optional`, when the configuration (or the environment) asks for it; null when nothing does. */
function neededBy(optional: OptionalPlugin, config: CadenceConfig, env: NodeJS.ProcessEnv): string | null {
  if (optional.forge !== null) {
    const section = config.forges[optional.forge];
    if (isRecord(section) && Object.keys(section).length > 0) return `forges.${optional.forge}`;
  }
  // A top-level section of its own (`ai`) is asked for by its `enabled`; a forge's, by being set (above).
  if (
    optional.configKey !== null &&
    !optional.configKey.includes('.') &&
    sectionEnabled(optional.configKey, config, env)
  )
    return `${optional.configKey}.enabled`;
  const options = config.plugin_options[optional.plugin];
  return options ? `plugin_options.${optional.plugin}` : null;
}

/**
 * A plugin's own section switched on: its `enabled` key's environment variable when it is set (the
 * environment wins over files, as for every key), else the file's `<key>.enabled`. Without its
 * plugin nothing else reads the section, so its absence is said here, and a value that is not a
 * boolean is refused here as the configuration refuses one, naming the variable.
 */
function sectionEnabled(configKey: string, config: CadenceConfig, env: NodeJS.ProcessEnv): boolean {
  const key = `${configKey}.enabled`;
  const name = environmentName(key);
  const fromEnvironment = env[name]?.trim();
  if (fromEnvironment) return parseValue(fromEnvironment, 'boolean', name, key) === true;
  const section: unknown = Reflect.get(config, configKey);
  return isRecord(section) && section.enabled === true;
}
