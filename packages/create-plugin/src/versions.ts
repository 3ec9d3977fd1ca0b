/**
 * The ranges a new plugin asks for: the plugin API (the SDK's version) it is written against, and
 * the testkit that tests it. `pnpm version-packages` rewrites both from the workspace's packages
 * (scripts/sync-plugin-api-version.mjs); a test holds them to those versions.
 */
export const PLUGIN_SDK_VERSION = '2.0.0';
export const PLUGIN_TESTKIT_VERSION = '2.0.0';
