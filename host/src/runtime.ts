import type { CadenceConfig, ConfigFile } from '@cadence-detect/config';
import type { Engine } from '@cadence-detect/engine';
import { createLogger, type Logger, type LogLevel } from '@cadence-detect/logger';
import type { LoadedPlugin, PluginLoadEntry } from '@cadence-detect/plugin-loader';
import type { CliIo } from './cli/io.js';
import { loadCliConfig } from './cli/load-config.js';
import { engineFromConfig } from './engine-setup.js';
import { loadHostPlugins } from './plugins.js';
import { CliError } from './cli/exit-codes.js';
import { errorMessage } from '@cadence-detect/errors';

/**
 * The configuration as resolved once, in the main thread: what analysis threads receive as data,
 * never a path to read again (a second read would apply a found file's code-loading keys as chosen).
 */
export interface ResolvedConfig {
  readonly config: CadenceConfig;
  /** The folder relative `plugins:` entries resolve from (the chosen file's), or null. */
  readonly pluginBase: string | null;
}

export interface Runtime {
  readonly config: CadenceConfig;
  readonly resolved: ResolvedConfig;
  readonly logger: Logger;
  readonly plugins: readonly LoadedPlugin[];
  readonly pluginEntries: readonly PluginLoadEntry[];
  readonly engine: Engine;
}

export interface RuntimeOptions {
  readonly configPath?: string;
  /** The project file to use instead of searching the working directory (`cadence ci`: the base's). */
  readonly projectFile?: ConfigFile | null;
  /** Already resolved (an analysis thread): no file, environment or flag is read again. */
  readonly resolved?: ResolvedConfig;
  readonly flags?: Record<string, unknown>;
  /** Where log lines go: the server logs to the configured output, the CLI to stderr. */
  readonly logStream?: NodeJS.WritableStream;
  readonly logLevel?: LogLevel;
  /** The server logs configuration warnings (a warn line); the CLI prints them on stderr. */
  readonly logWarnings?: boolean;
  /** An analysis thread: the server already said everything about the configuration. */
  readonly quietWarnings?: boolean;
}

/** Configuration, logger, plugins and engine: what every command that analyzes needs, built one way. */
export async function createRuntime(io: CliIo, options: RuntimeOptions = {}): Promise<Runtime> {
  const loadedConfig = options.resolved
    ? { ...options.resolved, warnings: [] }
    : await loadCliConfig(io, options.configPath, {
        flags: options.flags ?? {},
        printWarnings: !options.logWarnings && !options.quietWarnings,
        ...(options.projectFile !== undefined ? { projectFile: options.projectFile } : {}),
      });
  const { config: given, pluginBase, warnings } = loadedConfig;
  // The plugins' own secrets join once they have loaded (the logger reads this list at each line).
  const secrets = [given.webhook.secret, given.api.token, redisPassword(given.redis.url)].filter(
    (s): s is string => typeof s === 'string' && s.length > 0,
  );
  const stream = options.logStream ?? (given.logging.output === 'stderr' ? io.stderr : io.stdout);
  const logger = createLogger({ level: options.logLevel ?? given.logging.level, stream, secrets });
  if (options.logWarnings) for (const warning of warnings) logger.child('config').warn(warning);
  // A named plugin that does not load, or refused options, end a command with exit 2 (cli/exit-codes.ts).
  const loaded = await loadHostPlugins({
    config: given,
    env: options.resolved ? {} : io.env,
    pluginBase,
    logger: logger.child('plugins'),
  });
  secrets.push(...loaded.secrets);
  const { config } = loaded;
  let engine: Engine;
  try {
    engine = engineFromConfig(config, logger, loaded.plugins);
  } catch (error) {
    // A plugin that refuses its configuration as it starts (an unreadable forges.github.private_key_path): bad configuration, exit 2.
    throw new CliError('usage', errorMessage(error));
  }
  return {
    config,
    resolved: { config, pluginBase },
    logger,
    plugins: loaded.plugins,
    pluginEntries: loaded.entries,
    engine,
  };
}

/** The password (or token) in a Redis URL: scrubbed from every log line like the other secrets. */
function redisPassword(url: string): string | null {
  try {
    const parsed = new URL(url);
    return decodeURIComponent(parsed.password || '') || null;
  } catch {
    return null;
  }
}
