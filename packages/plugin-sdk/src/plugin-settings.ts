/**
 * Where a plugin's settings live in the configuration, and which of them are secrets.
 * The host builds the configuration's plugin sections, their environment names and the masking of
 * `cadence config`, logs and reports from these, so a third party's plugin is configured exactly as
 * a built-in one is.
 * @since 1.11
 */

import { isRecord } from '@cadence-detect/errors';

/** What `settingsKeyOf` needs of a plugin: its name, its forge, and its `meta`. */
export interface SettingsOwner {
  readonly name: string;
  readonly forge?: { readonly name: string };
  readonly meta?: { readonly configKey?: string; readonly options?: object };
}

/**
 * The section a plugin's settings live in: `meta.configKey` when declared, else `forges.<forge>`
 * for a forge plugin and `plugin_options.<name>` for any other. A plugin may only name its own
 * section (`settingsKeyProblem`), or a top-level section the host reserves for plugins (the AI
 * plugin's `ai`): never `webhook`, `api` or another plugin's.
 */
export function settingsKeyOf(plugin: SettingsOwner): string {
  if (plugin.meta?.configKey) return plugin.meta.configKey;
  return plugin.forge ? `forges.${plugin.forge.name}` : `plugin_options.${plugin.name}`;
}

/**
 * Why a declared `meta.configKey` is refused, or null when it names the plugin's own section or one
 * of `reserved`: the top-level sections the host keeps for this plugin's package (`ai`, for the AI
 * plugin's alone).
 * @since 2.0 (reserved)
 */
export function settingsKeyProblem(plugin: SettingsOwner, reserved: readonly string[] = []): string | null {
  const key = plugin.meta?.configKey;
  if (key === undefined) return null;
  const own = [`plugin_options.${plugin.name}`, ...(plugin.forge ? [`forges.${plugin.forge.name}`] : []), ...reserved];
  if (own.includes(key)) return null;
  return `its meta.configKey ${JSON.stringify(key)} is not its own section (${own.join(' or ')})`;
}

/**
 * The option paths (`token`, `auth.password`) whose schema says `secret: true`, on the property
 * itself or on a member of its union: `Type.String({ secret: true })`, or
 * `{ type: 'string', secret: true }` in a plain JSON Schema.
 */
export function secretOptionPaths(schema: object | undefined, prefix = ''): string[] {
  const properties: unknown = schema === undefined ? undefined : Reflect.get(schema, 'properties');
  if (!isRecord(properties)) return [];
  const out: string[] = [];
  for (const [name, child] of Object.entries(properties)) {
    if (!isRecord(child)) continue;
    const path = prefix ? `${prefix}.${name}` : name;
    if (isSecret(child)) out.push(path);
    else out.push(...secretOptionPaths(child, path));
  }
  return out;
}

function isSecret(schema: Record<string, unknown>): boolean {
  const { secret, anyOf } = schema;
  return (
    secret === true || (Array.isArray(anyOf) && anyOf.some((member) => isRecord(member) && member.secret === true))
  );
}
