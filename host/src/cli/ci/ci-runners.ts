import { defaultConfig } from '@cadence-detect/config';
import type { PluginLoadEntry } from '@cadence-detect/plugin-loader';
import type { CiRunner } from '@cadence-detect/plugin-sdk';
import { MissingPackageError, optionalForgePackage } from '../../optional-packages.js';
import { loadPluginModules } from '../../plugins.js';
import { CliError } from '../exit-codes.js';

/** The installed forge plugins' CI runners by forge name, and the plugins that did not load (to say why). */
export interface InstalledRunners {
  readonly runners: ReadonlyMap<string, CiRunner>;
  readonly unloaded: readonly PluginLoadEntry[];
}

/**
 * The CI runners of the installed forge plugins, by forge name. Found before any configuration is
 * read (a CI job reads it at the change's base commit, after choosing the runner): only plugins of
 * the installation the CLI runs from count, never the working directory's. Two plugins of one forge:
 * the first the loader met (a built-in before a discovered one) runs, as `cadence scan` takes it.
 */
export async function installedCiRunners(): Promise<InstalledRunners> {
  const { plugins, entries } = await loadPluginModules({
    config: defaultConfig(),
    env: {},
    pluginBase: null,
    throwOnRequiredFailure: false,
  });
  const runners = new Map<string, CiRunner>();
  for (const { plugin } of plugins)
    if (plugin.forge?.ci && !runners.has(plugin.forge.name)) runners.set(plugin.forge.name, plugin.forge.ci);
  return {
    runners: new Map([...runners].sort(([a], [b]) => a.localeCompare(b))),
    unloaded: entries.filter((entry) => entry.status === 'failed' || entry.status === 'incompatible'),
  };
}

/**
 * No installed plugin runs this forge's CI: why the forge's own package did not load when it is
 * installed, the package to install when it is one of Cadence's own, else the runners there are.
 */
export function missingCiRunner(forge: string, installed: InstalledRunners, what = `cadence ci ${forge}`): Error {
  const packageName = optionalForgePackage(forge);
  const unloaded = installed.unloaded.find((entry) => entry.packageName !== null && entry.packageName === packageName);
  if (unloaded)
    return new CliError(
      'usage',
      `${what} needs ${packageName}, which is installed but did not load (${unloaded.status}): ${unloaded.reason ?? 'no reason given'}`,
    );
  if (packageName) return new MissingPackageError(packageName, what);
  const names = [...installed.runners.keys()];
  return new CliError(
    'usage',
    `no installed plugin brings a CI runner for ${JSON.stringify(forge.slice(0, 40))}: ${names.length > 0 ? `the installed ones are ${names.join(', ')}` : 'none is installed'}`,
  );
}
