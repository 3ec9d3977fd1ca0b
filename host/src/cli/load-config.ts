import { loadConfig, type ConfigFile, type LoadedConfig } from '@cadence-detect/config';
import { isValidCidr } from '@cadence-detect/network-guard';
import { displayLine } from '@cadence-detect/reports/display-text';
import { CliError } from './exit-codes.js';
import type { CliIo } from './io.js';

export interface CliConfigOptions {
  /** The project file to use instead of searching the working directory (null: none). */
  readonly projectFile?: ConfigFile | null;
  /** Values from flags (highest precedence). */
  readonly flags?: Record<string, unknown>;
  /** The CLI prints warnings as one stderr line each; the server logs them instead. */
  readonly printWarnings?: boolean;
}

/** Loads the configuration for a command; an invalid one ends it with exit code 2 (docs/configuration.md). */
export async function loadCliConfig(
  io: CliIo,
  configPath: string | undefined,
  options: CliConfigOptions = {},
): Promise<LoadedConfig> {
  // An invalid configuration throws a ConfigError, which ends the command with exit 2 (exit-codes.ts).
  const loaded = await loadConfig({
    cwd: io.cwd,
    configPath: configPath ?? null,
    env: io.env,
    flags: options.flags ?? {},
    ...(options.projectFile !== undefined ? { projectFile: options.projectFile } : {}),
  });
  checkNetworks(loaded);
  if (options.printWarnings ?? true) {
    // A warning names paths from the working directory, which a cloned repository names.
    for (const warning of loaded.warnings) io.stderr.write(`cadence: warning: ${displayLine(warning)}\n`);
  }
  return loaded;
}

/** Checked at start-up, not on the first request that needs it (where it would fail every job). */
function checkNetworks({ config, filepath }: LoadedConfig): void {
  const lists = {
    'security.allowed_networks': config.security.allowed_networks,
    'api.trusted_proxies': config.api.trusted_proxies,
  };
  for (const [key, list] of Object.entries(lists)) {
    const bad = list.find((text) => !isValidCidr(text));
    if (bad !== undefined) {
      throw new CliError(
        'usage',
        `Invalid configuration in ${filepath ?? 'the configuration'}: ${key} has ${JSON.stringify(bad)}, which is not a CIDR (such as 10.1.2.3/32 or fd00::/8)`,
      );
    }
  }
}
