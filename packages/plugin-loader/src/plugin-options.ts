import { Value } from '@cadence-detect/plugin-sdk/typebox';
import { closestName, isRecord } from '@cadence-detect/errors';
import { deepFreeze } from './deep-freeze.js';
import type { LoadedPlugin } from './loaded-plugin.js';

/** A plugin's options were refused at start-up: exit code 2, the plugin and the key named. */
export class PluginOptionsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PluginOptionsError';
  }
}

export interface PluginOptionSources {
  /** `plugin_options`: by plugin name (what the plugin declares) or package name. */
  readonly sections: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
  /** `plugins: [{ name, options }]`: by the specifier the entry named. */
  readonly inline: ReadonlyMap<string, Readonly<Record<string, unknown>>>;
}

/**
 * Gives each loaded plugin its options: the `plugin_options` section under its name (or
 * package name), overlaid by the options of its `plugins:` entry, checked against the schema the
 * plugin declares in `meta.options` with the schema's defaults applied, then frozen. Options for a
 * plugin that is not loaded, or for one that declares no schema, are refused: a typo must not pass
 * silently as "no options".
 * @since 1.1
 */
export function resolvePluginOptions(plugins: readonly LoadedPlugin[], sources: PluginOptionSources): LoadedPlugin[] {
  const claimed = new Set<string>();
  const resolved = plugins.map((loaded) => {
    const keys = [loaded.plugin.name, loaded.packageName].filter((k, i, all) => all.indexOf(k) === i);
    const fromSections = keys.filter((key) => sources.sections[key] !== undefined);
    fromSections.forEach((key) => claimed.add(`plugin_options.${key}`));
    const inline = loaded.specifier !== undefined ? sources.inline.get(loaded.specifier) : undefined;
    if (inline && loaded.specifier !== undefined) claimed.add(`plugins:${loaded.specifier}`);
    const given = fromSections.length > 0 || inline !== undefined;
    const raw = Object.assign({}, ...fromSections.map((key) => sources.sections[key]), inline ?? {}) as Record<
      string,
      unknown
    >;
    const schema = loaded.plugin.meta?.options;
    const where = `plugin_options.${loaded.plugin.name}`;
    if (!schema) {
      if (given && Object.keys(raw).length > 0)
        throw new PluginOptionsError(
          `Invalid configuration: ${where}: the plugin ${loaded.plugin.name} (${loaded.packageName}) takes no options`,
        );
      return loaded;
    }
    const options = withDefaults(schema, structuredClone(raw)) as Record<string, unknown>;
    const first = Value.Errors(schema as never, options)[0];
    if (first) {
      const key = first.instancePath.replace(/^\//, '').replace(/\//g, '.');
      throw new PluginOptionsError(
        `Invalid configuration: ${where}${key ? `.${key}` : ''}: ${optionProblem(schema, key, first.message)} (options of the plugin ${loaded.plugin.name}, ${loaded.packageName})`,
      );
    }
    return { ...loaded, options: deepFreeze(options) };
  });
  for (const key of Object.keys(sources.sections)) {
    if (!claimed.has(`plugin_options.${key}`))
      throw new PluginOptionsError(`Invalid configuration: plugin_options.${key}: no loaded plugin is named ${key}`);
  }
  return resolved;
}

/**
 * A schema error as a sentence: an option the schema does not have (JSON Schema says "schema is
 * false" or "must not have additional properties") is an unknown option, with the closest name the
 * plugin does take; other errors keep the schema's words.
 */
function optionProblem(schema: object, key: string, message: string): string {
  if (!/schema is false|additional propert/i.test(message)) return message;
  const path = key.split('.');
  const name = path.pop() ?? key;
  const propertiesOf = (node: unknown): Record<string, unknown> =>
    isRecord(node) && isRecord(node.properties) ? node.properties : {};
  let node: unknown = schema;
  for (const part of path) node = propertiesOf(node)[part];
  const known = Object.keys(propertiesOf(node));
  const suggestion = closestName(name, known);
  if (suggestion) return `unknown option ${name} (did you mean ${suggestion}?)`;
  return known.length > 0 ? `unknown option ${name} (the options are ${known.join(', ')})` : `unknown option ${name}`;
}

/**
 * The value with the schema's `default`s filled where it has none. typebox's Value.Default applies
 * those of a schema built with typebox (every built-in's), nested ones included. It reads
 * a schema's kind from typebox's own marker, so on a plain JSON Schema object, which a third-party
 * plugin in plain JavaScript may declare, it fills nothing below the top: the properties'
 * defaults are filled here then.
 */
function withDefaults(schema: object, value: unknown): unknown {
  return '~kind' in schema ? Value.Default(schema as never, value) : plainDefaults(schema, value);
}

function plainDefaults(schema: object, value: unknown): unknown {
  const type: unknown = Reflect.get(schema, 'type');
  const properties: unknown = Reflect.get(schema, 'properties');
  if (type !== 'object' || !isRecord(properties) || !isRecord(value)) return value;
  for (const [key, child] of Object.entries(properties)) {
    if (!isRecord(child)) continue;
    if (value[key] === undefined && 'default' in child) value[key] = structuredClone(child.default);
    if (value[key] !== undefined) value[key] = plainDefaults(child, value[key]);
  }
  return value;
}
