import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { toPluginConfigView, type CadenceConfig } from '@cadence-detect/config';
import { installationNodeModules, loadPlugins, PluginOptionsError, resolvePluginOptions, type LoadPluginsResult } from '@cadence-detect/plugin-loader';
import type { PluginLogger } from '@cadence-detect/plugin-sdk';

/**
 * The built-in strategies are ordinary plugin packages, loaded by the same loader as third-party
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
];

const HOST_DIR = path.resolve(fileURLToPath(new URL('.', import.meta.url)), '..');

export interface HostPluginOptions {
  /** The configuration's `plugins:` list: only ever from a file the user chose (see @cadence-detect/config). */
  readonly configured: CadenceConfig['plugins'];
  /** `plugin_options`: checked against each plugin's schema (PluginOptionsError, exit 2). */
  readonly pluginOptions?: CadenceConfig['plugin_options'];
  /** Built-ins the configuration turns on (the forge reporters). */
  readonly extraBuiltins?: readonly string[];
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
  const options: CadenceConfig['plugin_options'] = { ...config.plugin_options, 'ai-assist': ai };
  if (githubReporting(config)) options['report-github'] = { ...githubReportOptions(config), ...config.plugin_options['report-github'] };
  if (config.forges.gitlab.token) {
    const gitlab = config.forges.gitlab;
    options['report-gitlab'] = { token: gitlab.token, api_url: gitlab.api_url, merge_request_note: gitlab.merge_request_note, fail_on: config.report.fail_on, ...config.plugin_options['report-gitlab'] };
  }
  return options;
}

/** The forge reporters are plugins like any other, loaded when their forge is configured (docs/forges.md). */
export function forgeReporterPlugins(config: CadenceConfig): string[] {
  return [...(githubReporting(config) ? ['@cadence-detect/plugin-report-github'] : []), ...(config.forges.gitlab.token ? ['@cadence-detect/plugin-report-gitlab'] : [])];
}

function githubReporting(config: CadenceConfig): boolean {
  const github = config.forges.github;
  return Boolean(github.token) || (github.app_id !== null && Boolean(github.private_key || github.private_key_path));
}

/** forges.github and report.fail_on as the GitHub reporter's options; the App's key read from its file when given as a path. */
function githubReportOptions(config: CadenceConfig): Record<string, unknown> {
  const github = config.forges.github;
  return {
    token: github.token,
    app_id: github.app_id,
    private_key: github.private_key ?? (github.private_key_path ? readPrivateKey(github.private_key_path) : null),
    api_url: github.api_url,
    fail_on: config.report.fail_on,
  };
}

/** The GitHub App's private key, once, at start-up (the message names the path, never the key). */
export function readPrivateKey(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    throw new PluginOptionsError(`Invalid configuration: forges.github.private_key_path: cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
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
    builtins: [...BUILTIN_PLUGINS, ...(options.extraBuiltins ?? [])],
    hostDir: HOST_DIR,
    configured: specifiers,
    configDir: options.pluginBase ?? HOST_DIR,
    discoverIn: installationNodeModules(HOST_DIR),
    ...(options.logger ? { logger: options.logger } : {}),
    ...(options.throwOnRequiredFailure !== undefined ? { throwOnRequiredFailure: options.throwOnRequiredFailure } : {}),
  });
  return { ...loaded, plugins: resolvePluginOptions(loaded.plugins, { sections: options.pluginOptions ?? {}, inline }) };
}
