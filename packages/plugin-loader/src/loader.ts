import { realpath } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { LoadedPlugin } from './loaded-plugin.js';
import type { CadencePlugin, PluginLogger } from '@cadence-detect/plugin-sdk';
import { settingsKeyProblem } from '@cadence-detect/plugin-sdk';
import { incompatibility, targetedRange } from './compatibility.js';
import { discoverPluginPackages } from './discovery.js';
import { entryFile, isPathSpecifier, locatePackage } from './package-location.js';
import { errorMessage, fieldOf, isRecord } from '@cadence-detect/errors';

export type PluginOrigin = LoadedPlugin['source'];

/** What `cadence plugins` prints: every candidate, whether it loads, and why not. */
export interface PluginLoadEntry {
  readonly specifier: string;
  readonly source: PluginOrigin;
  readonly packageName: string | null;
  readonly version: string | null;
  readonly path: string | null;
  readonly status: 'loaded' | 'failed' | 'incompatible' | 'duplicate';
  readonly reason: string | null;
}

/** A plugin named by the host or the configuration did not load: start-up stops (exit code 2). */
export class PluginLoadError extends Error {
  constructor(readonly entry: PluginLoadEntry) {
    super(`plugin ${entry.specifier} (${entry.source}) could not be loaded: ${entry.reason ?? entry.status}`);
    this.name = 'PluginLoadError';
  }
}

export interface LoadPluginsOptions {
  /** Built-in plugin packages, resolved from `hostDir`. */
  readonly builtins: readonly string[];
  /**
   * Built-in plugin packages the host runs without (the AI providers, the forges): loaded as
   * built-ins when installed where `hostDir` resolves them, left out without a word when not. The
   * host says what needs one that is missing.
   */
  readonly optionalBuiltins?: readonly string[];
  readonly hostDir: string;
  /** The configuration's `plugins:` list, resolved from `configDir`. */
  readonly configured: readonly string[];
  readonly configDir: string;
  /**
   * node_modules folders to discover `cadence-plugin` packages in (the installation's: see
   * installationNodeModules); empty turns discovery off. Never the working directory's, whose
   * packages a cloned repository chooses.
   */
  readonly discoverIn: readonly string[];
  /**
   * The only node_modules folders package names resolve in (the installation's: see
   * installationNodeModules; for a `plugins:` name, `configDir`'s own node_modules first). Absent:
   * Node's resolution, every ancestor's node_modules (for tests and embedders).
   */
  readonly moduleFolders?: readonly string[];
  readonly logger?: PluginLogger;
  /** `cadence plugins` wants the whole report even when a named plugin fails. */
  readonly throwOnRequiredFailure?: boolean;
  /**
   * Top-level configuration sections the host keeps for one package each (`ai` for the AI plugin's):
   * that package's plugin may name it as its `meta.configKey`, no other.
   */
  readonly pluginSections?: Readonly<Record<string, string>>;
}

export interface LoadPluginsResult {
  readonly plugins: LoadedPlugin[];
  readonly entries: PluginLoadEntry[];
}

export async function loadPlugins(options: LoadPluginsOptions): Promise<LoadPluginsResult> {
  const throwOnRequired = options.throwOnRequiredFailure ?? true;
  const plugins: LoadedPlugin[] = [];
  const entries: PluginLoadEntry[] = [];
  /** Each loaded package name: where it came from and its real folder (symlinks resolved, as Node's module cache does). */
  const seen = new Map<string, { source: PluginOrigin; path: string; realDir: string }>();

  const optional = new Set(options.optionalBuiltins ?? []);
  const candidates: { specifier: string; source: PluginOrigin; fromDir: string }[] = [
    ...[...options.builtins, ...optional].map((specifier) => ({
      specifier,
      source: 'builtin' as const,
      fromDir: options.hostDir,
    })),
    ...options.configured.map((specifier) => ({ specifier, source: 'config' as const, fromDir: options.configDir })),
  ];
  // A built-in found again by discovery is the same package: not imported twice, not listed twice.
  const known = new Set([...options.builtins, ...optional]);
  for (const modules of options.discoverIn) {
    for (const name of await discoverPluginPackages(modules)) {
      if (known.has(name)) continue;
      known.add(name);
      candidates.push({ specifier: name, source: 'discovered', fromDir: path.dirname(modules) });
    }
  }

  for (const candidate of candidates) {
    const within =
      options.moduleFolders === undefined
        ? undefined
        : candidate.source === 'config'
          ? [path.join(candidate.fromDir, 'node_modules'), ...options.moduleFolders]
          : options.moduleFolders;
    const outcome = await loadOne(candidate, within, options.pluginSections ?? {});
    if (outcome.absent && optional.has(candidate.specifier) && candidate.source === 'builtin') continue;
    if (outcome.plugin) {
      const key = outcome.plugin.packageName;
      const dir = outcome.entry.path ?? candidate.specifier;
      const realDir = await realpath(dir);
      const earlier = seen.get(key);
      // The same folder again (a `plugins:` entry naming a built-in, or a configured package that
      // discovery also finds) is one package: one row, the first. Only another copy is a duplicate.
      if (earlier?.realDir === realDir) continue;
      if (earlier) {
        entries.push({
          ...outcome.entry,
          status: 'duplicate',
          reason: `another copy is already loaded (${earlier.source}, ${earlier.path})`,
        });
        continue;
      }
      seen.set(key, { source: candidate.source, path: dir, realDir });
      plugins.push(outcome.plugin);
      entries.push(outcome.entry);
      continue;
    }
    entries.push(outcome.entry);
    if (candidate.source === 'discovered') {
      options.logger?.error('discovered plugin skipped', { plugin: candidate.specifier, reason: outcome.entry.reason });
    } else if (throwOnRequired) {
      throw new PluginLoadError(outcome.entry);
    }
  }
  return { plugins, entries };
}

async function loadOne(
  { specifier, source, fromDir }: { specifier: string; source: PluginOrigin; fromDir: string },
  within: readonly string[] | undefined,
  pluginSections: Readonly<Record<string, string>>,
): Promise<{ entry: PluginLoadEntry; plugin?: LoadedPlugin; absent?: true }> {
  const base = { specifier, source, packageName: null, version: null, path: null };
  const located = await locatePackage(specifier, fromDir, within);
  if (!located) {
    const where = isPathSpecifier(specifier)
      ? path.resolve(fromDir, specifier)
      : within
        ? within.join(', ')
        : `node_modules from ${fromDir}`;
    return { entry: { ...base, status: 'failed', reason: `not found (looked in ${where})` }, absent: true };
  }
  const packageName = located.manifest.name ?? path.basename(located.dir);
  const described = { ...base, packageName, version: located.manifest.version ?? null, path: located.dir };
  let plugin: unknown;
  try {
    const module: unknown = await import(pathToFileURL(entryFile(located)).href);
    plugin = fieldOf(module, 'default');
  } catch (error) {
    return {
      entry: {
        ...described,
        status: 'failed',
        reason: `import failed: ${errorMessage(error)}`,
      },
    };
  }
  const shapeProblem = checkShape(plugin);
  if (shapeProblem) return { entry: { ...described, status: 'failed', reason: shapeProblem } };
  const valid = plugin as CadencePlugin;
  const owned = Object.keys(pluginSections).filter((section) => pluginSections[section] === packageName);
  const settingsProblem = settingsKeyProblem(valid, owned);
  if (settingsProblem) return { entry: { ...described, status: 'failed', reason: settingsProblem } };
  const problem = incompatibility(targetedRange(valid.apiVersion, located.manifest.peerDependencies));
  if (problem) return { entry: { ...described, status: 'incompatible', reason: problem } };
  return {
    entry: { ...described, status: 'loaded', reason: null },
    plugin: {
      plugin: valid,
      packageName,
      version: located.manifest.version ?? '0.0.0',
      source,
      path: located.dir,
      specifier,
    },
  };
}

function checkShape(value: unknown): string | null {
  if (!isRecord(value)) return 'its default export is not a plugin object (expected { name, apply })';
  if (typeof value.name !== 'string' || value.name.length === 0) return 'its default export has no name';
  if (typeof value.apply !== 'function') return 'its default export has no apply(hooks) method';
  return null;
}
