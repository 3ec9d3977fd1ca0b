export {
  loadPlugins,
  PluginLoadError,
  type LoadPluginsOptions,
  type LoadPluginsResult,
  type PluginLoadEntry,
  type PluginOrigin,
} from './loader.js';
export { discoverPluginPackages, installationNodeModules, PLUGIN_KEYWORD } from './discovery.js';
export { incompatibility, targetedRange, SDK_PACKAGE } from './compatibility.js';
export { resolvePluginOptions, PluginOptionsError, type PluginOptionSources } from './plugin-options.js';
export type { LoadedPlugin } from './loaded-plugin.js';
export { deepFreeze } from './deep-freeze.js';
export { locatePackage, type LocatedPackage } from './package-location.js';
