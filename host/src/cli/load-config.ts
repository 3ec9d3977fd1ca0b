import { ConfigError, loadConfig, type LoadedConfig } from '@cadence/config';
import { CliExit, type CliIo } from './io.js';

/** Loads the configuration for a command; an invalid one ends it with exit code 2 (decisions §10). */
export async function loadCliConfig(io: CliIo, configPath: string | undefined, flags: Record<string, unknown> = {}): Promise<LoadedConfig> {
  try {
    const loaded = await loadConfig({ cwd: io.cwd, configPath: configPath ?? null, env: io.env, flags });
    for (const warning of loaded.warnings) io.stderr.write(`cadence: warning: ${warning}\n`);
    return loaded;
  } catch (error) {
    if (error instanceof ConfigError) throw new CliExit(2, error.message);
    throw error;
  }
}
