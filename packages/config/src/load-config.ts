import { existsSync } from 'node:fs';
import path from 'node:path';
import { cosmiconfig, type Loader } from 'cosmiconfig';
import Value from 'typebox/value';
import { parse as parseYaml } from 'yaml';
import { ConfigError } from './config-error.js';
import { configFromEnvironment, environmentNames } from './environment.js';
import { ConfigSchema, type CadenceConfig } from './schema.js';
import { parseDuration, parseSize } from './units.js';

export interface LoadConfigOptions {
  readonly cwd?: string;
  /** `--config`: this file only, no search. */
  readonly configPath?: string | null;
  readonly env?: NodeJS.ProcessEnv;
  /** Values from command-line flags, as a partial configuration (highest precedence). */
  readonly flags?: Record<string, unknown>;
}

export interface LoadedConfig {
  readonly config: CadenceConfig;
  readonly filepath: string | null;
  readonly warnings: string[];
}

const DATA_PLACES = ['.cadence.yaml', '.cadence.yml', '.cadence.json', '.cadencerc', '.cadencerc.yaml', '.cadencerc.yml', '.cadencerc.json', 'package.json'];
/** Found, never loaded: a configuration must never run code (decisions §10). */
const SCRIPT_PLACES = ['.cadence.js', '.cadence.cjs', '.cadence.mjs', '.cadence.ts', '.cadencerc.js', '.cadencerc.cjs', '.cadencerc.mjs', '.cadencerc.ts', 'cadence.config.js', 'cadence.config.cjs', 'cadence.config.mjs', 'cadence.config.ts'];
const SCRIPT_EXTENSION = /\.(c|m)?(j|t)s$/i;

const yamlLoader: Loader = (filepath, content) => {
  try {
    return parseYaml(content) as unknown;
  } catch (error) {
    throw new ConfigError(`Invalid configuration file ${filepath}: not valid YAML (${firstLine(error)})`, undefined, filepath);
  }
};
const jsonLoader: Loader = (filepath, content) => {
  try {
    return JSON.parse(content) as unknown;
  } catch (error) {
    throw new ConfigError(`Invalid configuration file ${filepath}: not valid JSON (${firstLine(error)})`, undefined, filepath);
  }
};

function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';
}

/** Effective configuration: flags > environment > file > defaults, validated as a whole. */
export async function loadConfig(options: LoadConfigOptions = {}): Promise<LoadedConfig> {
  const cwd = options.cwd ?? process.cwd();
  const env = options.env ?? process.env;
  const warnings: string[] = [];
  const { data, filepath } = await readFile(cwd, options.configPath ?? null, warnings);
  if (data !== null) checkShape(data, filepath ?? 'the configuration file', 'file');
  const fromEnv = configFromEnvironment(env);
  checkShape(fromEnv, 'the environment', 'env');
  const flags = options.flags ?? {};
  checkShape(flags, 'the command line', 'flags');
  const merged = deepMerge(deepMerge(deepMerge({}, data ?? {}), fromEnv), flags);
  const config = Value.Default(ConfigSchema, merged) as CadenceConfig;
  checkShape(config, filepath ?? 'the configuration', 'effective');
  checkUnits(config, filepath);
  return { config, filepath, warnings };
}

async function readFile(cwd: string, configPath: string | null, warnings: string[]): Promise<{ data: unknown; filepath: string | null }> {
  const explorer = cosmiconfig('cadence', {
    searchPlaces: DATA_PLACES,
    loaders: { '.yaml': yamlLoader, '.yml': yamlLoader, '.json': jsonLoader, noExt: yamlLoader },
    searchStrategy: 'global',
    cache: false,
  });
  if (configPath) {
    const file = path.resolve(cwd, configPath);
    if (SCRIPT_EXTENSION.test(file)) {
      throw new ConfigError(`Refused configuration file ${file}: JavaScript configuration files are not allowed (use YAML or JSON)`, undefined, file);
    }
    if (!existsSync(file)) throw new ConfigError(`Configuration file not found: ${file}`, undefined, file);
    const result = await explorer.load(file);
    return { data: result?.config ?? {}, filepath: file };
  }
  const result = await explorer.search(cwd);
  warnAboutScripts(cwd, result?.filepath ?? null, warnings);
  if (!result || result.isEmpty) return { data: null, filepath: result?.filepath ?? null };
  return { data: result.config, filepath: result.filepath };
}

/** A JavaScript configuration near the working directory is ignored, and said so. */
function warnAboutScripts(cwd: string, found: string | null, warnings: string[]): void {
  const stop = found ? path.dirname(found) : path.parse(cwd).root;
  for (let dir = path.resolve(cwd); ; dir = path.dirname(dir)) {
    for (const name of SCRIPT_PLACES) {
      const file = path.join(dir, name);
      if (existsSync(file)) warnings.push(`Ignored ${file}: JavaScript configuration files are never loaded (use .cadence.yaml)`);
    }
    if (dir === stop || dir === path.dirname(dir)) break;
  }
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
    if (child.type === 'object' && value && typeof value === 'object' && !Array.isArray(value)) {
      const nested = unknownKey(value as Record<string, unknown>, child, keyPath);
      if (nested) return nested;
    }
  }
  return null;
}

/** The schema with every key optional: a file, the environment or flags set only some keys. */
const partialSchema = makePartial(ConfigSchema as unknown as Record<string, unknown>);

function makePartial(schema: Record<string, unknown>): never {
  if (schema.type !== 'object') return schema as never;
  const properties = schema.properties as Record<string, Record<string, unknown>>;
  const next: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(properties)) next[key] = makePartial(value);
  return { ...schema, required: [], properties: next } as never;
}

function checkUnits(config: CadenceConfig, file: string | null): void {
  const where = file ?? 'the configuration';
  if (Number.isNaN(parseDuration(config.ai.retry_backoff_initial))) {
    throw new ConfigError(`Invalid configuration in ${where}: ai.retry_backoff_initial must be a duration such as 500ms, 1s or 2m`, 'ai.retry_backoff_initial', file ?? undefined);
  }
  if (Number.isNaN(parseSize(config.cache.max_size))) {
    throw new ConfigError(`Invalid configuration in ${where}: cache.max_size must be a size such as 500m, 1g or 65536`, 'cache.max_size', file ?? undefined);
  }
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
