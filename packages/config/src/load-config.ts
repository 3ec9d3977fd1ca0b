import path from 'node:path';
import { Value } from '@cadence-detect/plugin-sdk/typebox';
import { closestName, isRecord } from '@cadence-detect/errors';
import { ConfigError } from './config-error.js';
import { findProjectFile, findUserFile, readNamedFile, userConfigDir, type ConfigFile } from './config-files.js';
import { configFromEnvironment, environmentNames } from './environment.js';
import { ConfigSchema, PROJECT_FILE_KEYS, schemaProperties, SECRET_KEYS, type CadenceConfig } from './schema.js';
import { checkValues } from './value-checks.js';

export interface LoadConfigOptions {
  readonly cwd?: string;
  /** `--config`: this file only, neither the user's file nor the search. */
  readonly configPath?: string | null;
  readonly env?: NodeJS.ProcessEnv;
  /**
   * The project file to use instead of searching from `cwd` (null: none). `cadence ci` reads it
   * from the base of the change, never from the working directory a pull request wrote. Like a
   * found file, it sets analysis data only.
   */
  readonly projectFile?: ConfigFile | null;
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
 * Effective configuration: flags > environment > a file the user chose (`--config`, else their own
 * `$XDG_CONFIG_HOME/cadence/config.yaml`) > a project file found from the working directory >
 * defaults; `--config` replaces both files. A found file may be a cloned repository's, so it sets
 * analysis data only (PROJECT_FILE_KEYS; docs/configuration.md, Trust). Validated as a whole.
 */
export async function loadConfig(options: LoadConfigOptions = {}): Promise<LoadedConfig> {
  const cwd = options.cwd ?? process.cwd();
  const env = options.env ?? process.env;
  const warnings: string[] = [];
  const layers = readLayers(cwd, options.configPath ?? null, env, warnings, options.projectFile);
  let merged: Record<string, unknown> = {};
  let pluginBase: string | null = null;
  for (const layer of layers) {
    if (layer.data === null) continue;
    requireMapping(layer.data, layer.filepath);
    const data = layer.chosen ? layer.data : keepProjectData(layer.data, layer.filepath, env, warnings);
    checkShape(data, layer.filepath, 'file');
    if (layer.chosen && 'plugins' in data) pluginBase = path.dirname(layer.filepath);
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

/** Lowest precedence first: the found project file, then the file the user chose. */
function readLayers(
  cwd: string,
  configPath: string | null,
  env: NodeJS.ProcessEnv,
  warnings: string[],
  given: ConfigFile | null | undefined,
): Layer[] {
  if (configPath) return [{ ...readNamedFile(cwd, configPath), chosen: true }];
  const layers: Layer[] = [];
  const user = findUserFile(env, warnings);
  const project = given === undefined ? findProjectFile(cwd, env, warnings) : given;
  // The same file twice (a home folder that is its own configuration folder) is read once, as the user's.
  if (project && project.filepath !== user?.filepath) layers.push({ ...project, chosen: false });
  if (user) layers.push({ ...user, chosen: true });
  return layers;
}

/**
 * A found file's analysis data: every section of the schema outside PROJECT_FILE_KEYS (plugins,
 * plugin options, AI, forges, security, the server's own settings) decides what code runs or where
 * requests and secrets go, and a cloned repository chooses that file. Dropped with one warning;
 * keys the schema does not know stay, so a typo still stops with its name.
 */
function keepProjectData(
  data: Record<string, unknown>,
  file: string,
  env: NodeJS.ProcessEnv,
  warnings: string[],
): Record<string, unknown> {
  const known = Object.keys(ConfigSchema.properties);
  const ignored = Object.keys(data).filter((key) => known.includes(key) && !PROJECT_FILE_KEYS.includes(key));
  if (ignored.length === 0) return { ...data };
  warnings.push(
    `Ignored ${ignored.join(', ')} in ${file}: a configuration found from the working directory sets analysis data only (${PROJECT_FILE_KEYS.join(', ')}), never loads code or says where analyses and secrets go; put ${ignored.length === 1 ? 'it' : 'them'} in a file given with --config or in ${path.join(userConfigDir(env), 'config.yaml')}`,
  );
  return Object.fromEntries(Object.entries(data).filter(([key]) => !ignored.includes(key)));
}

function requireMapping(data: unknown, source: string): asserts data is Record<string, unknown> {
  if (data === null || typeof data !== 'object' || Array.isArray(data)) {
    throw new ConfigError(
      `Invalid configuration in ${source}: the top level must be a mapping of keys`,
      undefined,
      source,
    );
  }
}

function checkShape(data: unknown, source: string, origin: 'file' | 'env' | 'flags' | 'effective'): void {
  requireMapping(data, source);
  const unknown = unknownKey(data, ConfigSchema, '');
  if (unknown)
    throw new ConfigError(
      `Invalid configuration in ${source}: unknown key ${unknown}${keyHint(unknown)}`,
      unknown,
      source,
    );
  const schema = origin === 'effective' ? ConfigSchema : partialSchema;
  const errors = Value.Errors(schema, data);
  const first = errors[0];
  if (!first) return;
  const key = first.instancePath.replace(/^\//, '').replace(/\//g, '.');
  const where = origin === 'env' ? `${source} (${environmentNames(key)[0] ?? key})` : source;
  throw new ConfigError(
    `Invalid configuration in ${where}: ${key || 'value'} ${first.message}${foundValue(data, first.instancePath, key)}`,
    key,
    source,
  );
}

/** `, found "500"`: the value the check refused, as written (cut to 60 characters); never a secret's. */
function foundValue(data: unknown, pointer: string, key: string): string {
  if ((SECRET_KEYS as readonly string[]).includes(key) || /(^|\.)(token|secret|key|password|private_key)$/.test(key))
    return '';
  let value: unknown = data;
  for (const part of pointer.split('/').slice(1)) {
    if (!isRecord(value)) return '';
    value = value[part.replace(/~1/g, '/').replace(/~0/g, '~')];
  }
  if (value === undefined) return '';
  // eslint-disable-next-line @typescript-eslint/no-base-to-string, @typescript-eslint/no-unnecessary-condition -- A value JSON cannot write (none a YAML or JSON file gives) still has a text
  const text = JSON.stringify(value) ?? String(value);
  return `, found ${text.length > 60 ? `${text.slice(0, 57)}...` : text}`;
}

/** ` (did you mean thresholds.suspicious_additions?)` for a key one or two edits from a real one. */
function keyHint(keyPath: string): string {
  const parts = keyPath.split('.');
  const name = parts.pop() ?? '';
  let node: unknown = ConfigSchema;
  for (const part of parts) node = schemaProperties(node)[part];
  const suggestion = closestName(name, Object.keys(schemaProperties(node)));
  return suggestion ? ` (did you mean ${[...parts, suggestion].join('.')}?)` : '';
}

function unknownKey(data: Record<string, unknown>, schema: unknown, prefix: string): string | null {
  const properties = schemaProperties(schema);
  const freeKeys = isRecord(schema) && isRecord(schema.additionalProperties);
  for (const [key, value] of Object.entries(data)) {
    const child = properties[key];
    const keyPath = prefix ? `${prefix}.${key}` : key;
    // A section with free keys besides its own (`forges.<name>`): the plugins' schemas check those once they load.
    if (!child && freeKeys) continue;
    if (!isRecord(child)) return keyPath;
    // Maps with free keys (plugin_options) have no `properties`: their plugins' own schemas check them.
    if (child.type === 'object' && isRecord(child.properties) && isRecord(value)) {
      const nested = unknownKey(value, child, keyPath);
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
  if (!isRecord(over)) return base;
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(over)) {
    if (value === undefined) continue;
    const current = out[key];
    if (isRecord(value) && isRecord(current)) {
      out[key] = deepMerge(current, value);
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
