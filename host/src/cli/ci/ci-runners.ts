import { defaultConfig } from '@cadence-detect/config';
import type { CiRunner } from '@cadence-detect/plugin-sdk';
import { MissingPackageError, optionalForgePackage } from '../../optional-packages.js';
import { loadPluginModules } from '../../plugins.js';
import { CliError } from '../exit-codes.js';

/**
 * The CI runners of the installed forge plugins, by forge name. Found before any configuration is
 * read (a CI job reads it at the change's base commit, after choosing the runner): only plugins of
 * the installation the CLI runs from count, never the working directory's.
 */
export async function installedCiRunners(): Promise<Map<string, CiRunner>> {
  const { plugins } = await loadPluginModules({
    config: defaultConfig(),
    env: {},
    pluginBase: null,
    throwOnRequiredFailure: false,
  });
  const runners = new Map<string, CiRunner>();
  for (const { plugin } of plugins) if (plugin.forge?.ci) runners.set(plugin.forge.name, plugin.forge.ci);
  return new Map([...runners].sort(([a], [b]) => a.localeCompare(b)));
}

/** No installed plugin runs this forge's CI: the package to install when it is one of Cadence's own, else the runners there are. */
export function missingCiRunner(forge: string, installed: readonly string[], what = `cadence ci ${forge}`): Error {
  const packageName = optionalForgePackage(forge);
  if (packageName) return new MissingPackageError(packageName, what);
  return new CliError(
    'usage',
    `no installed plugin brings a CI runner for ${JSON.stringify(forge.slice(0, 40))}: ${installed.length > 0 ? `the installed ones are ${installed.join(', ')}` : 'none is installed'}`,
  );
}
