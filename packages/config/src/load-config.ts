import path from 'node:path';
import Value from 'typebox/value';
import { ConfigError } from './config-error.js';
import { findProjectFile, findUserFile, readNamedFile, userConfigDir, type ConfigFile } from './config-files.js';
import { configFromEnvironment, environmentNames } from './environment.js';
import { ConfigSchema, type CadenceConfig } from './schema.js';
import { checkValues } from './value-checks.js';

export interface LoadConfigOptions {
  readonly cwd?: string;
  /** `--config`: this file only, neither the user's file nor the search. */
  readonly configPath?: string | null;
  readonly env?: NodeJS.ProcessEnv;
  /** Values from command-line flags, as a partial configuration (highest precedence). */
  readonly flags?: Record<string, unknown>;
}

export interface LoadedConfig {
  /** The effective configuration; its `plugins` come from a file the user chose only. */
  readonly config: CadenceConfig;
  /** The file with the highest precedence that was read, or null. */
  readonly filepath: string | null;
  /** Every file read, lowest precedence first. */
  readonly files: readonly string[];
  /** The folder relative `plugins:` entries resolve from: the chosen file's; null when none set plugins. */
  readonly pluginBase: string | null;
  readonly warnings: string[];
}

/** A file and whether the user chose it (`--config`, their configuration folder) or it was found. */
interface Layer extends ConfigFile {
  readonly chosen: boolean;
}

/**
 * Effective configuration: flags > environment > project file found from the working directory >
 * the user's file (`$XDG_CONFIG_HOME/cadence/config.yaml`) > defaults; `--config` replaces both
 * files. Validated as a whole.
 */
export async function loadConfig(options: LoadConfigOptions = {}): Promise<LoadedConfig> {
  const cwd = options.cwd ?? process.cwd();
  const env = options.env ?? process.env;
  const warnings: string[] = [];
  const layers = readLayers(cwd, options.configPath ?? null, env, warnings);
  let merged: Record<string, unknown> = {};
  let pluginBase: string | null = null;
  for (const layer of layers) {
    if (layer.data === null) continue;
    checkShape(layer.data, layer.filepath, 'file');
    const data = { ...(layer.data as Record<string, unknown>) };
    if ('plugins' in data) {
      if (layer.chosen) {
        pluginBase = path.dirname(layer.filepath);
      } else {
        if (Array.isArray(data.plugins) && data.plugins.length > 0) warnings.push(ignoredPlugins(layer.filepath, env));
        delete data.plugins;
      }
    }
    if (!layer.chosen) {
      dropUntrustedAiKeys(data, layer.filepath, warnings);
      // Options steer plugins (where they send things, what they run): like plugins:, a chosen file's only.
      if ('plugin_options' in data) {
        warnings.push(`Ignored plugin_options in ${layer.filepath}: a configuration found from the working directory never configures plugins (set them in your own configuration file or one given with --config)`);
        delete data.plugin_options;
      }
    }
    merged = deepMerge(merged, data);
  }
  const fromEnv = configFromEnvironment(env);
  checkShape(fromEnv, 'the environment', 'env');
  const flags = options.flags ?? {};
  checkShape(flags, 'the command line', 'flags');
  merged = deepMerge(deepMerge(merged, fromEnv), flags);
  const filepath = layers.at(-1)?.filepath ?? null;
  const config = Value.Default(ConfigSchema, merged) as CadenceConfig;
  checkShape(config, filepath ?? 'the configuration', 'effective');
  checkValues(config, filepath);
  return { config, filepath, files: layers.map((l) => l.filepath), pluginBase, warnings };
}

function readLayers(cwd: string, configPath: string | null, env: NodeJS.ProcessEnv, warnings: string[]): Layer[] {
  if (configPath) return [{ ...readNamedFile(cwd, configPath), chosen: true }];
  const layers: Layer[] = [];
  const user = findUserFile(env, warnings);
  if (user) layers.push({ ...user, chosen: true });
  const project = findProjectFile(cwd, env, warnings);
  // The same file twice (a home folder that is its own configuration folder) is read once, as the user's.
  if (project && project.filepath !== user?.filepath) layers.push({ ...project, chosen: false });
  return layers;
}

/**
 * A file found by searching from the working directory may be a cloned repository's: it sets data,
 * never code (decisions §10 as amended, docs/plugins.md).
 */
function ignoredPlugins(file: string, env: NodeJS.ProcessEnv): string {
  return `Ignored the plugins: list in ${file}: a configuration found from the working directory never loads code (name plugins in ${path.join(userConfigDir(env), 'config.yaml')} or in a file given with --config)`;
}

/**
 * Where diffs go and whose key goes with them: a cloned repository's file could otherwise point the
 * user's AI key and the repository's diffs at a server of its own. Only a file the user chose, the
 * environment or a flag sets these.
 */
const UNTRUSTED_AI_KEYS = ['baseUrl', 'key', 'provider'] as const;

function dropUntrustedAiKeys(data: Record<string, unknown>, file: string, warnings: string[]): void {
  const ai = data.ai;
  if (!ai || typeof ai !== 'object' || Array.isArray(ai)) return;
  const present = UNTRUSTED_AI_KEYS.filter((key) => key in ai);
  if (present.length === 0) return;
  const kept = { ...(ai as Record<string, unknown>) };
  for (const key of present) delete kept[key];
  data.ai = kept;
  warnings.push(`Ignored ${present.map((k) => `ai.${k}`).join(', ')} in ${file}: a configuration found from the working directory may not say where analyses are sent (set them in your own configuration file, the environment or a file given with --config)`);
}

function checkShape(data: unknown, source: string, origin: 'file' | 'env' | 'flags' | 'effective'): void {
  if (data === null || typeof data !== 'object' || Array.isArray(data)) {
    throw new ConfigError(`Invalid configuration in ${source}: the top level must be a mapping of keys`, undefined, source);
  }
  const unknown = unknownKey(data as Record<string, unknown>, ConfigSchema as unknown as SchemaNode, '');
  if (unknown) throw new ConfigError(`Invalid configuration in ${source}: unknown key ${unknown}`, unknown, source);
  const schema = origin === 'effective' ? ConfigSchema : partialSchema;
  const errors = Value.Errors(schema, data);
  const first = errors[0];
  if (!first) return;
  const key = first.instancePath.replace(/^\//, '').replace(/\//g, '.');
  const where = origin === 'env' ? `${source} (${environmentNames(key)[0] ?? key})` : source;
  throw new ConfigError(`Invalid configuration in ${where}: ${key || 'value'} ${first.message}`, key, source);
}

interface SchemaNode {
  type?: string;
  properties?: Record<string, SchemaNode>;
}

function unknownKey(data: Record<string, unknown>, schema: SchemaNode, prefix: string): string | null {
  const properties = schema.properties ?? {};
  for (const [key, value] of Object.entries(data)) {
    const child = properties[key];
    const keyPath = prefix ? `${prefix}.${key}` : key;
    if (!child) return keyPath;
    // Maps with free keys (plugin_options) have no `properties`: their plugins' own schemas check them.
    if (child.type === 'object' && child.properties && value && typeof value === 'object' && !Array.isArray(value)) {
      const nested = unknownKey(value as Record<string, unknown>, child, keyPath);
      if (nested) return nested;
    }
  }
  return null;
}

/** The schema with every key optional: a file, the environment or flags set only some keys. */
const partialSchema = makePartial(ConfigSchema as unknown as Record<string, unknown>);

function makePartial(schema: Record<string, unknown>): never {
  // Maps with free keys (plugin_options) have no properties to loosen.
  if (schema.type !== 'object' || !schema.properties) return schema as never;
  const properties = schema.properties as Record<string, Record<string, unknown>>;
  const next: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(properties)) next[key] = makePartial(value);
  return { ...schema, required: [], properties: next } as never;
}

function deepMerge(base: Record<string, unknown>, over: unknown): Record<string, unknown> {
  if (!over || typeof over !== 'object') return base;
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(over as Record<string, unknown>)) {
    if (value === undefined) continue;
    const current = out[key];
    if (value && typeof value === 'object' && !Array.isArray(value) && current && typeof current === 'object' && !Array.isArray(current)) {
      out[key] = deepMerge(current as Record<string, unknown>, value);
    } else {
      out[key] = value;
    }
  }
  return out;
}

/** The configuration when nothing is set: the schema's defaults (what the plugin testkit starts from). */
export function defaultConfig(): CadenceConfig {
  return Value.Default(ConfigSchema, {}) as CadenceConfig;
}
