export {
  ConfigSchema,
  DEFAULT_EXCLUDE_FILES,
  SECRET_KEYS,
  PLUGIN_SECTIONS,
  PROJECT_FILE_KEYS,
  leafKeys,
  type CadenceConfig,
  type ForgeSection,
} from './schema.js';
export {
  pluginSections,
  pluginEnvironmentNames,
  applyPluginEnvironment,
  pluginSecretValues,
  pluginSecretLocations,
  sectionValues,
  unownedForgeSections,
  withForgeDefaults,
  type PluginSection,
} from './plugin-sections.js';
export { loadConfig, defaultConfig, type LoadConfigOptions, type LoadedConfig } from './load-config.js';
export { ConfigError } from './config-error.js';
export { parseConfigText, type ConfigFile } from './config-files.js';
export { environmentName, environmentNames, parseValue } from './environment.js';
export {
  maskSecrets,
  renderConfigYaml,
  toPluginConfigView,
  configInitTemplate,
  SERVER_SETTINGS,
  MASK,
} from './presentation.js';
export { pluginSectionTemplate, pluginSectionTemplates } from './section-template.js';
export { parseDuration, parseSize } from './units.js';
export { isForgeName, isOwnerPath } from './forge-target.js';
