import { isRecord } from '@cadence-detect/errors';
import { secretOptionPaths, settingsKeyOf, type SettingsOwner } from '@cadence-detect/plugin-sdk';
import { parseValue, setPath } from './environment.js';
import { leafKind, PLUGIN_SECTIONS, schemaProperties, type CadenceConfig } from './schema.js';

/**
 * The configuration's plugin sections, built from the plugins that loaded: where each plugin's
 * settings live (`forges.<forge>`, `plugin_options.<name>`, or a top-level section kept for a
 * plugin, `ai`), the environment names of its
 * top-level options, and which of them are secrets. The host reads `plugins:`, loads them, then
 * completes the configuration from these.
 */
export interface PluginSection {
  /** `forges.github`, `plugin_options.file-drops`, `ai`. */
  readonly configKey: string;
  /** The plugin's options schema (none: it takes no options). */
  readonly options: object | undefined;
  /** Option paths its schema marks `secret: true`. */
  readonly secrets: readonly string[];
}

export function pluginSections(plugins: readonly SettingsOwner[]): PluginSection[] {
  return plugins.map((plugin) => ({
    configKey: settingsKeyOf(plugin),
    options: plugin.meta?.options,
    secrets: secretOptionPaths(plugin.meta?.options),
  }));
}

/**
 * The environment names of one option: `forges.gitea.token` is `CADENCE_GITEA_TOKEN` (then
 * `CADENCE_FORGES_GITEA_TOKEN`); `plugin_options.file-drops.api_key` is `CADENCE_PLUGIN_FILE_DROPS_API_KEY`;
 * `ai.key` is `CADENCE_AI_KEY`. Then, for a top-level section the host keeps for one package alone
 * (`ai`), the names the option's schema lists in `env` (the interface's `BATCH_SIZE`). Any other
 * plugin's `env` is not read: it would let a plugin read any variable, a secret of the host's
 * among them. The first that is set wins.
 */
export function pluginEnvironmentNames(configKey: string, option: string, schema?: unknown): string[] {
  const own = ownEnvironmentNames(configKey, option);
  if (!(configKey in PLUGIN_SECTIONS)) return own;
  const aliases = isRecord(schema) ? schema.env : undefined;
  const extra = Array.isArray(aliases)
    ? aliases.filter(
        (name): name is string =>
          typeof name === 'string' && /^[A-Z][A-Z0-9_]*$/.test(name) && !name.startsWith('CADENCE_'),
      )
    : [];
  return [...own, ...extra];
}

function ownEnvironmentNames(configKey: string, option: string): string[] {
  const word = (text: string) =>
    text
      .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
      .replace(/[^A-Za-z0-9]+/g, '_')
      .replace(/^_|_$/g, '')
      .toUpperCase();
  const [section, owner] = splitKey(configKey);
  if (owner === null) return [`CADENCE_${word(section)}_${word(option)}`];
  if (section === 'forges')
    return [`CADENCE_${word(owner)}_${word(option)}`, `CADENCE_FORGES_${word(owner)}_${word(option)}`];
  return [`CADENCE_PLUGIN_${word(owner)}_${word(option)}`];
}

/**
 * `plugin_options.@acme/x` → ['plugin_options', '@acme/x'] (a plugin's name may hold dots);
 * a top-level section, `ai`, → ['ai', null].
 */
function splitKey(configKey: string): [string, string | null] {
  const dot = configKey.indexOf('.');
  return dot < 0 ? [configKey, null] : [configKey.slice(0, dot), configKey.slice(dot + 1)];
}

/** The object holding the section's values (created when `create`), or undefined. */
function sectionIn(config: Record<string, unknown>, configKey: string, create: true): Record<string, unknown>;
function sectionIn(
  config: Record<string, unknown>,
  configKey: string,
  create?: boolean,
): Record<string, unknown> | undefined;
function sectionIn(
  config: Record<string, unknown>,
  configKey: string,
  create = false,
): Record<string, unknown> | undefined {
  const [section, owner] = splitKey(configKey);
  const objectAt = (holder: Record<string, unknown>, key: string): Record<string, unknown> | undefined => {
    const value = holder[key];
    if (isRecord(value)) return value;
    if (!create) return undefined;
    return (holder[key] = {});
  };
  const top = objectAt(config, section);
  return owner === null || !top ? top : objectAt(top, owner);
}

/** The section's values as written (`forges.<forge>`, `plugin_options.<name>`, `ai`), or undefined. */
export function sectionValues(config: CadenceConfig, configKey: string): Record<string, unknown> | undefined {
  return sectionIn(config, configKey);
}

/**
 * The configuration with each plugin's top-level options that the environment sets, over what
 * files set (the environment's precedence for every key). Values are read by the option's type.
 */
export function applyPluginEnvironment(
  config: CadenceConfig,
  sections: readonly PluginSection[],
  env: NodeJS.ProcessEnv,
): CadenceConfig {
  const next = structuredClone(config);
  const root: Record<string, unknown> = next;
  for (const section of sections) {
    for (const [option, schema] of Object.entries(schemaProperties(section.options))) {
      const kind = leafKind(schema);
      if (!kind) continue;
      const names = pluginEnvironmentNames(section.configKey, option, schema);
      const name = names.find((candidate) => env[candidate] !== undefined && env[candidate] !== '');
      const value = name === undefined ? undefined : env[name];
      if (name === undefined || value === undefined) continue;
      const target = sectionIn(root, section.configKey, true);
      setPath(target, option, parseValue(value, kind, name, `${section.configKey}.${option}`));
    }
  }
  return next;
}

/** Every secret value the plugin sections hold: scrubbed from log lines like the host's own. */
export function pluginSecretValues(config: CadenceConfig, sections: readonly PluginSection[]): string[] {
  const out: string[] = [];
  for (const location of pluginSecretLocations(config, sections)) {
    // A section nobody owns may hold mappings and lists: every string in them counts.
    out.push(...stringsIn(valueAt(config, location)));
  }
  return out;
}

function stringsIn(value: unknown): string[] {
  if (typeof value === 'string') return value.length > 0 ? [value] : [];
  if (value && typeof value === 'object') return Object.values(value).flatMap(stringsIn);
  return [];
}

/**
 * Where the masked values are, as key parts (`['plugin_options', '@acme/x', 'api_key']`: a plugin's
 * name may hold dots): each loaded plugin's secret options, and every value of a section no loaded
 * plugin owns (one that failed to load, or a typo), since without its schema nothing says which of
 * its values are secrets.
 */
export function pluginSecretLocations(
  config: CadenceConfig,
  sections: readonly PluginSection[] | undefined,
): string[][] {
  const owned = new Map((sections ?? []).map((section) => [section.configKey, section]));
  const out: string[][] = [];
  for (const top of Object.keys(PLUGIN_SECTIONS)) {
    const value = sectionValues(config, top);
    if (!value) continue;
    const section = owned.get(top);
    const paths = section ? section.secrets.map((path) => path.split('.')) : Object.keys(value).map((key) => [key]);
    out.push(...paths.map((path) => [top, ...path]));
  }
  for (const top of ['forges', 'plugin_options'] as const) {
    const holder = config[top];
    for (const [owner, value] of Object.entries(holder)) {
      if (!isRecord(value)) continue;
      const section = owned.get(`${top}.${owner}`);
      const paths = section ? section.secrets.map((path) => path.split('.')) : Object.keys(value).map((key) => [key]);
      out.push(...paths.map((path) => [top, owner, ...path]));
    }
  }
  return out;
}

function valueAt(config: CadenceConfig, parts: readonly string[]): unknown {
  let node: unknown = config;
  for (const part of parts) {
    if (!isRecord(node)) return undefined;
    node = node[part];
  }
  return node;
}

/** Sections under `forges.<name>` that no loaded plugin owns: refused, as unclaimed `plugin_options` are. */
export function unownedForgeSections(config: CadenceConfig, sections: readonly PluginSection[]): string[] {
  const owned = new Set(sections.map((section) => section.configKey));
  return Object.entries(config.forges)
    .filter(
      ([name, value]) =>
        // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- A file may write `forges.github:` with no value: null, whatever the type says
        name !== 'request_drafts' && value !== null && typeof value === 'object' && !owned.has(`forges.${name}`),
    )
    .map(([name]) => `forges.${name}`);
}

/** Options every forge plugin takes from elsewhere (`report.fail_on`, `forges.request_drafts`): not repeated in its section. */
const COMMON_FORGE_OPTIONS = new Set(['fail_on', 'request_drafts']);

/**
 * What `cadence config` shows of each forge section (and a top-level plugin section, `ai`): the values set, with the plugin's defaults
 * for the rest (a typebox schema's; a plain JSON Schema's top-level ones), as the plugin will get them.
 */
export function withForgeDefaults(config: CadenceConfig, sections: readonly PluginSection[]): CadenceConfig {
  const next = structuredClone(config);
  const root: Record<string, unknown> = next;
  for (const section of sections) {
    const [top, owner] = splitKey(section.configKey);
    const forge = top === 'forges' && owner !== null;
    if ((!forge && owner !== null) || !section.options) continue;
    const written = sectionValues(config, section.configKey) ?? {};
    const filled: Record<string, unknown> = {};
    for (const [name, schema] of Object.entries(schemaProperties(section.options))) {
      if (name in written) filled[name] = written[name];
      else if (!(forge && COMMON_FORGE_OPTIONS.has(name)) && isRecord(schema) && 'default' in schema)
        filled[name] = structuredClone(schema.default);
    }
    for (const [name, value] of Object.entries(written)) if (!(name in filled)) filled[name] = value;
    if (owner === null) root[top] = filled;
    else next.forges[owner] = filled;
  }
  return next;
}
