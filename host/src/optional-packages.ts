import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { errorCode, errorMessage, fieldOf } from '@cadence-detect/errors';
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

/**
 * One entry of the optional plugins' catalogue (`dist/optional-plugins.json`, which `pnpm build`
 * writes from the plugins the umbrella package brings, read from each plugin's own definition):
 * the host holds no list of them.
 */
export interface OptionalPlugin {
  readonly packageName: string;
  /** The plugin's name once loaded. */
  readonly plugin: string;
  /** The forge it brings (its settings under `forges.<forge>`), or null. */
  readonly forge: string | null;
  /** The section it owns (`ai`, `forges.github`), or null. */
  readonly configKey: string | null;
}

let catalogue: readonly OptionalPlugin[] | undefined;

/** The installation's catalogue, read when first asked for (importing this module reads no file). */
export function optionalPlugins(): readonly OptionalPlugin[] {
  catalogue ??= readCatalogue(path.join(HOST_DIR, 'dist', 'optional-plugins.json'));
  return catalogue;
}

/** The catalogue; none when it is missing or unreadable (a build without it names no package). */
export function readCatalogue(file: string): OptionalPlugin[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return [];
  }
  if (!Array.isArray(parsed)) return [];
  const text = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);
  return parsed.flatMap((entry: unknown) => {
    const packageName = text(fieldOf(entry, 'packageName'));
    const plugin = text(fieldOf(entry, 'plugin'));
    if (!packageName || !plugin) return [];
    return [
      { packageName, plugin, forge: text(fieldOf(entry, 'forge')), configKey: text(fieldOf(entry, 'configKey')) },
    ];
  });
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

/** The package of Cadence's own plugin for a forge, or null when Cadence has none for it. */
export function optionalForgePackage(forge: string): string | null {
  return optionalPlugins().find((p) => p.forge === forge)?.packageName ?? null;
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
