import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  applyPluginEnvironment,
  pluginSecretValues,
  pluginSections,
  PLUGIN_SECTIONS,
  sectionValues,
  unownedForgeSections,
  type CadenceConfig,
  type PluginSection,
} from '@cadence-detect/config';
import {
  installationNodeModules,
  loadPlugins,
  PluginOptionsError,
  resolvePluginOptions,
  type LoadPluginsResult,
} from '@cadence-detect/plugin-loader';
import { settingsKeyOf, type PluginLogger } from '@cadence-detect/plugin-sdk';
import { optionalPlugins } from './optional-packages.js';
import { missingOptionalPlugin } from './optional-plugin-settings.js';

/**
 * The built-in strategies are ordinary plugin packages, loaded by the same loader as third-party
 * ones (resolved from the host package, as its dependencies). The AI providers and the forges
 * (webhook intake, squash look-ups and reporting: docs/forges.md) are built-ins the CLI runs
 * without, loaded when installed beside it (optional-packages.ts).
 */
export const BUILTIN_PLUGINS: readonly string[] = [
  '@cadence-detect/plugin-attribution',
  '@cadence-detect/plugin-commit-model',
  '@cadence-detect/plugin-velocity',
  '@cadence-detect/plugin-timing',
  '@cadence-detect/plugin-size',
  '@cadence-detect/plugin-website-signature',
];

const HOST_DIR = path.resolve(fileURLToPath(new URL('.', import.meta.url)), '..');

export interface HostPluginOptions {
  /** The configuration as files, the environment and flags gave it; its `plugins:` come only from a file the user chose. */
  readonly config: CadenceConfig;
  /** Where the loaded plugins' options are read from besides files (CADENCE_PLUGIN_<NAME>_<OPTION>, CADENCE_<FORGE>_<OPTION>). */
  readonly env?: NodeJS.ProcessEnv;
  /** The folder of the file that set `plugins:` (relative entries resolve from it), or null. */
  readonly pluginBase: string | null;
  readonly logger?: PluginLogger;
  readonly throwOnRequiredFailure?: boolean;
}

export interface HostPlugins extends LoadPluginsResult {
  /** The configuration completed from the loaded plugins (their options from the environment). */
  readonly config: CadenceConfig;
  /** Where each loaded plugin's settings live and which are secrets. */
  readonly sections: readonly PluginSection[];
  /** The plugin sections' secret values, for the logger to scrub. */
  readonly secrets: readonly string[];
}

/** Settings every forge plugin gets when its schema takes them: `report.fail_on`, `forges.request_drafts`. */
function commonForgeSettings(config: CadenceConfig): Record<string, unknown> {
  return { fail_on: config.report.fail_on, request_drafts: config.forges.request_drafts };
}

/**
 * Decided once, for any plugin whose settings live outside `plugin_options` (its `meta.configKey`):
 * a forge plugin gets `forges.<forge>` and the common settings its schema takes, the AI plugin the
 * top-level `ai` section, under what `plugin_options` sets for it. Whether a forge can report or
 * look anything up, or the AI plugin run, is the plugin's to say from them.
 */
function withSectionOptions(
  plugins: LoadPluginsResult['plugins'],
  config: CadenceConfig,
): CadenceConfig['plugin_options'] {
  const merged = { ...config.plugin_options };
  const common = commonForgeSettings(config);
  for (const { plugin } of plugins) {
    const key = settingsKeyOf(plugin);
    if (key.startsWith('plugin_options.')) continue;
    const takes = new Set(Object.keys((plugin.meta?.options as { properties?: object } | undefined)?.properties ?? {}));
    const forge = key.startsWith('forges.');
    const given = forge ? Object.fromEntries(Object.entries(common).filter(([name]) => takes.has(name))) : {};
    merged[plugin.name] = { ...given, ...sectionValues(config, key), ...config.plugin_options[plugin.name] };
  }
  return merged;
}

/**
 * Every plugin the host runs: built-ins, `plugins:` entries and `cadence-plugin` packages discovered
 * in the installation the host runs from. Nothing depends on the working directory: `cadence
 * analyze .` in a cloned repository must not import that repository's code. Plugins load first;
 * then their sections are completed from the environment and checked against their schemas.
 */
export async function loadHostPlugins(options: HostPluginOptions): Promise<HostPlugins> {
  const modules = await loadPluginModules(options);
  const configured = options.config.plugins;
  const inline = new Map(
    configured.flatMap((entry) =>
      typeof entry === 'object' && entry.options ? [[entry.name, entry.options] as const] : [],
    ),
  );
  const { config, sections } = modules;
  const missing = missingOptionalPlugin(config, modules.plugins, options.env ?? {});
  if (missing) throw missing;
  const unowned = unownedForgeSections(config, sections)[0];
  if (unowned)
    throw new PluginOptionsError(
      `Invalid configuration: ${unowned}: no loaded plugin brings the forge ${unowned.slice('forges.'.length)}`,
    );
  const byName = withSectionOptions(modules.plugins, config);
  return { ...modules, plugins: resolvePluginOptions(modules.plugins, { sections: byName, inline }) };
}

/**
 * The plugins imported and the configuration completed from them (their options from the
 * environment, their secrets), before their options are checked: what `cadence config` prints
 * even when a plugin's options would be refused.
 */
export async function loadPluginModules(options: HostPluginOptions): Promise<HostPlugins> {
  const specifiers = options.config.plugins.map((entry) => (typeof entry === 'string' ? entry : entry.name));
  const loaded = await loadPlugins({
    builtins: BUILTIN_PLUGINS,
    optionalBuiltins: optionalPlugins().map((p) => p.packageName),
    hostDir: HOST_DIR,
    configured: specifiers,
    configDir: options.pluginBase ?? HOST_DIR,
    discoverIn: installationNodeModules(HOST_DIR),
    moduleFolders: installationNodeModules(HOST_DIR),
    pluginSections: PLUGIN_SECTIONS,
    ...(options.logger ? { logger: options.logger } : {}),
    ...(options.throwOnRequiredFailure !== undefined ? { throwOnRequiredFailure: options.throwOnRequiredFailure } : {}),
  });
  const sections = pluginSections(loaded.plugins.map((p) => p.plugin));
  const config = applyPluginEnvironment(options.config, sections, options.env ?? process.env);
  return { ...loaded, config, sections, secrets: pluginSecretValues(config, sections) };
}
