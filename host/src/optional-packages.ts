import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { errorCode, errorMessage, isRecord } from '@cadence-detect/errors';
import type { CadenceConfig } from '@cadence-detect/config';
import type { LoadedPlugin } from '@cadence-detect/plugin-loader';

/** The CLI's package folder: optional packages count only where its installation holds them. */
const HOST_DIR = path.resolve(fileURLToPath(new URL('.', import.meta.url)), '..');

/**
 * What `@cadence-detect/cli` runs without (docs/install.md): `analyze` and `scan` need none of
 * these, `ci <forge>` needs its forge's plugin alone, so a CI job installs only what it runs. Each
 * is loaded when installed beside the CLI (a global install's siblings, or the umbrella package's
 * dependencies); a command or a setting that needs a missing one says which package to install, in
 * one line.
 */
export const UMBRELLA_PACKAGE = '@cadence-detect/cadence';
export const SERVER_PACKAGE = '@cadence-detect/server';

interface OptionalPlugin {
  readonly packageName: string;
  /** A forge's plugin (its name the forge's), or another optional one. */
  readonly kind: 'forge' | 'other';
  /** The plugin's name once loaded. */
  readonly plugin: string;
  /** The setting that needs it, when the configuration (or the environment) asks for it; null when nothing does. */
  readonly neededBy: (config: CadenceConfig, env: NodeJS.ProcessEnv) => string | null;
}

export const OPTIONAL_PLUGINS: readonly OptionalPlugin[] = [
  {
    packageName: '@cadence-detect/plugin-ai-assist',
    kind: 'other',
    plugin: 'ai-assist',
    neededBy: aiSection,
  },
  { packageName: '@cadence-detect/plugin-github', kind: 'forge', plugin: 'github', neededBy: forgeSection('github') },
  { packageName: '@cadence-detect/plugin-gitlab', kind: 'forge', plugin: 'gitlab', neededBy: forgeSection('gitlab') },
  { packageName: '@cadence-detect/plugin-gitea', kind: 'forge', plugin: 'gitea', neededBy: forgeSection('gitea') },
  {
    packageName: '@cadence-detect/plugin-bitbucket',
    kind: 'forge',
    plugin: 'bitbucket',
    neededBy: forgeSection('bitbucket'),
  },
];

/**
 * `ai.enabled`, from CADENCE_AI_ENABLED when it is set (the environment wins over files, as for
 * every key), else from the file: without the AI plugin nothing else reads the `ai:` section, so
 * its absence is said here.
 */
function aiSection(config: CadenceConfig, env: NodeJS.ProcessEnv): string | null {
  const fromEnvironment = env.CADENCE_AI_ENABLED?.trim();
  const enabled = fromEnvironment ? /^(true|1|yes|on)$/i.test(fromEnvironment) : config.ai.enabled === true;
  return enabled ? 'ai.enabled (the AI providers)' : null;
}

function forgeSection(forge: string): (config: CadenceConfig) => string | null {
  return (config) => {
    const section = config.forges[forge];
    const set = isRecord(section) && Object.keys(section).length > 0;
    return set ? `forges.${forge}` : null;
  };
}

/** "npm install -g @cadence-detect/server (beside @cadence-detect/cli), or @cadence-detect/cadence for everything". */
export function installHint(packageName: string): string {
  return `npm install -g ${packageName} (beside @cadence-detect/cli), or install ${UMBRELLA_PACKAGE}, which brings everything`;
}

/** A package the command or the configuration needs is not installed: exit 2, naming it. */
export class MissingPackageError extends Error {
  constructor(
    readonly packageName: string,
    what: string,
  ) {
    super(`${what} needs ${packageName}, which is not installed: ${installHint(packageName)}`);
    this.name = 'MissingPackageError';
  }
}

/** The first setting that needs an optional plugin that did not load, as an error; null when none. */
export function missingOptionalPlugin(
  config: CadenceConfig,
  loaded: readonly LoadedPlugin[],
  env: NodeJS.ProcessEnv = {},
): MissingPackageError | null {
  const names = new Set(loaded.map((p) => p.plugin.name));
  for (const optional of OPTIONAL_PLUGINS) {
    if (names.has(optional.plugin)) continue;
    const options = config.plugin_options[optional.plugin];
    const setting = optional.neededBy(config, env) ?? (options ? `plugin_options.${optional.plugin}` : null);
    if (setting) return new MissingPackageError(optional.packageName, `the configuration's ${setting}`);
  }
  return null;
}

/** The package of Cadence's own plugin for a forge, or null when Cadence has none for it. */
export function optionalForgePackage(forge: string): string | null {
  return OPTIONAL_PLUGINS.find((p) => p.kind === 'forge' && p.plugin === forge)?.packageName ?? null;
}

/** `cadence scan github:acme` without the forge's package installed: the error naming it; null otherwise. */
export function missingForgePlugin(forge: string, loaded: readonly LoadedPlugin[]): MissingPackageError | null {
  if (loaded.some((p) => p.plugin.forge?.name === forge)) return null;
  const packageName = optionalForgePackage(forge);
  return packageName ? new MissingPackageError(packageName, `listing ${forge}:<owner>`) : null;
}

/**
 * Imports a command's module that needs the server package; a missing server becomes the one-line
 * MissingPackageError rather than Node's module-resolution error.
 */
export async function importNeedingServer<T>(command: string, load: () => Promise<T>): Promise<T> {
  // Node would find the package in any parent folder's node_modules (a shared /tmp's): it counts
  // only where the installation holds it, and then that copy is the nearest, the one Node loads.
  // Imported here: `cadence --help` and `version` load this module and never the plugin loader.
  const { installationNodeModules, locatePackage } = await import('@cadence-detect/plugin-loader');
  if (!(await locatePackage(SERVER_PACKAGE, HOST_DIR, installationNodeModules(HOST_DIR))))
    throw new MissingPackageError(SERVER_PACKAGE, `cadence ${command}`);
  try {
    return await load();
  } catch (error) {
    if (isMissingPackage(error, SERVER_PACKAGE)) throw new MissingPackageError(SERVER_PACKAGE, `cadence ${command}`);
    throw error;
  }
}

function isMissingPackage(error: unknown, packageName: string): boolean {
  return errorCode(error) === 'ERR_MODULE_NOT_FOUND' && errorMessage(error).includes(`'${packageName}'`);
}
