export { createPluginPackage, starterNames, StarterError } from './create-plugin-package.js';
export { starterFiles, type StarterNames } from './templates.js';
export { main, type CliIo } from './cli.js';
export { PLUGIN_SDK_VERSION, PLUGIN_TESTKIT_VERSION } from './versions.js';
