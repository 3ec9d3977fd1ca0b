/**
 * The plugin API version this SDK implements. A plugin declares the range it targets
 * (its peer dependency on @cadence-detect/plugin-sdk, or `apiVersion`); the host refuses a plugin whose range excludes this.
 */
export const PLUGIN_API_VERSION = '2.0.0';
