import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { toPluginConfigView, type CadenceConfig } from '@cadence-detect/config';
import { installationNodeModules, loadPlugins, resolvePluginOptions, type LoadPluginsResult } from '@cadence-detect/plugin-loader';
import type { PluginLogger } from '@cadence-detect/plugin-sdk';

/**
 * The built-in strategies and forges are ordinary plugin packages, loaded by the same loader as third-party
 * ones (resolved from the host package, as its dependencies).
 */
export const BUILTIN_PLUGINS: readonly string[] = [
  '@cadence-detect/plugin-attribution',
  '@cadence-detect/plugin-commit-model',
  '@cadence-detect/plugin-velocity',
  '@cadence-detect/plugin-timing',
  '@cadence-detect/plugin-size',
  '@cadence-detect/plugin-website-signature',
  '@cadence-detect/plugin-ai-assist',
  // The forges: webhook intake, squash look-ups and reporting, each in one package (docs/forges.md).
  '@cadence-detect/plugin-github',
  '@cadence-detect/plugin-gitlab',
];

const HOST_DIR = path.resolve(fileURLToPath(new URL('.', import.meta.url)), '..');

export interface HostPluginOptions {
  /** The configuration's `plugins:` list: only ever from a file the user chose (see @cadence-detect/config). */
  readonly configured: CadenceConfig['plugins'];
  /** `plugin_options`: checked against each plugin's schema (PluginOptionsError, exit 2). */
  readonly pluginOptions?: CadenceConfig['plugin_options'];
  /** `forges.*`: the options of the plugins that declare those forges (forgeSettings). */
  readonly forges?: ForgeSettings;
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
  // The key only here: the view every plugin sees carries none.
  const ai = { ...toPluginConfigView(config).ai, key: config.ai.key, ...config.plugin_options['ai-assist'] };
  return { ...config.plugin_options, 'ai-assist': ai };
}

/** The forges' settings, which become the options of the plugin that declares each forge. */
export interface ForgeSettings {
  /** `forges.<name>` by forge name. */
  readonly byForge: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
  /** Settings every forge plugin gets when its schema takes them: `report.fail_on`, `forges.request_drafts`. */
  readonly common: Readonly<Record<string, unknown>>;
}

export function forgeSettings(config: CadenceConfig): ForgeSettings {
  const { request_drafts, ...byForge } = config.forges;
  return { byForge, common: { fail_on: config.report.fail_on, request_drafts } };
}

/**
 * Decided once, and for any forge: the plugin that declares forge `<name>` (`plugin.forge`) gets
 * `forges.<name>` and the common settings its schema takes as options, under what `plugin_options`
 * sets for it. Whether a forge can report or look anything up is the plugin's to say from them.
 */
function withForgeOptions(plugins: LoadPluginsResult['plugins'], sections: CadenceConfig['plugin_options'], forges: ForgeSettings | undefined): CadenceConfig['plugin_options'] {
  if (!forges) return sections;
  const merged = { ...sections };
  for (const { plugin } of plugins) {
    if (!plugin.forge) continue;
    const takes = new Set(Object.keys((plugin.meta?.options as { properties?: object } | undefined)?.properties ?? {}));
    const common = Object.fromEntries(Object.entries(forges.common).filter(([key]) => takes.has(key)));
    merged[plugin.name] = { ...common, ...forges.byForge[plugin.forge.name], ...sections[plugin.name] };
  }
  return merged;
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
  const sections = withForgeOptions(loaded.plugins, options.pluginOptions ?? {}, options.forges);
  return { ...loaded, plugins: resolvePluginOptions(loaded.plugins, { sections, inline }) };
}
