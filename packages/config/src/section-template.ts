import { isRecord } from '@cadence-detect/errors';
import { stringify } from './vendor/yaml.js';
import { pluginEnvironmentNames, type PluginSection } from './plugin-sections.js';
import { PLUGIN_SECTIONS, schemaProperties } from './schema.js';

/** Where a line's comment starts in the template (the core sections' column). */
const COMMENT_COLUMN = 33;

/**
 * A top-level plugin section (`ai`) as `cadence config init` writes it, from the plugin's own options
 * schema: each option at its default with its `description` (or its choices) as a comment; a secret
 * names its environment variable instead of a value; an option without a default is left commented.
 * The section is the plugin's, so its template is too: the configuration package holds no copy.
 */
export function pluginSectionTemplate(section: PluginSection): string {
  const lines = [`${section.configKey}:`];
  for (const [name, schema] of Object.entries(schemaProperties(section.options))) {
    const about = isRecord(schema) ? schema : {};
    if (section.secrets.includes(name)) {
      lines.push(`  # ${name}: set ${pluginEnvironmentNames(section.configKey, name, schema)[0]} instead`);
      continue;
    }
    const comment = optionComment(about);
    const value = about.default;
    const line = value === undefined || value === null ? `  # ${name}:` : `  ${name}: ${oneLine(value)}`;
    lines.push(comment ? `${line.padEnd(COMMENT_COLUMN - 1)} # ${comment}` : line);
  }
  return `${lines.join('\n')}\n`;
}

/** A default as one line of YAML: flow style, or JSON (which YAML reads) where a string holds a line break. */
function oneLine(value: unknown): string {
  const text = stringify(value, { lineWidth: 0, collectionStyle: 'flow' }).trim();
  return text.includes('\n') ? JSON.stringify(value) : text;
}

/** The option's description, else its choices (`openai | anthropic`). */
function optionComment(schema: Record<string, unknown>): string | undefined {
  if (typeof schema.description === 'string') return schema.description.replace(/\s+/g, ' ').trim();
  const choices = Array.isArray(schema.enum) ? schema.enum : Array.isArray(schema.anyOf) ? constants(schema.anyOf) : [];
  return choices.length > 0 ? choices.map(String).join(' | ') : undefined;
}

function constants(members: unknown[]): unknown[] {
  const values = members.map((member) => (isRecord(member) ? member.const : undefined));
  return values.every((value) => typeof value === 'string') ? values : [];
}

/**
 * The top-level plugin sections for `cadence config init`: each installed owner's template, and for
 * an owner that is not installed, one line naming the package that brings the section.
 */
export function pluginSectionTemplates(sections: readonly PluginSection[]): string[] {
  return Object.entries(PLUGIN_SECTIONS).map(([key, packageName]) => {
    const owner = sections.find((section) => section.configKey === key);
    return owner
      ? pluginSectionTemplate(owner)
      : `# ${key}: the settings of ${packageName}, listed here when it is installed and loads\n`;
  });
}
