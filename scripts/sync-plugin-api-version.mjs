// Run by `pnpm version-packages` after `changeset version`: the plugin SDK's package version IS the
// plugin API version, so PLUGIN_API_VERSION in packages/plugin-sdk/src/version.ts is rewritten to
// the version Changesets just gave the SDK: a patch when a package it depends on was released (the
// API's own minor and major versions are set by hand, and no changeset names the SDK), and the
// plugin starter's ranges to the SDK's and the testkit's. `pnpm release:check` refuses the two apart.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const sdk = path.resolve(fileURLToPath(new URL('.', import.meta.url)), '../packages/plugin-sdk');
const { version } = JSON.parse(readFileSync(path.join(sdk, 'package.json'), 'utf8'));
const file = path.join(sdk, 'src/version.ts');
const source = readFileSync(file, 'utf8');
const pattern = /export const PLUGIN_API_VERSION = '[^']+';/;
if (!pattern.test(source)) throw new Error(`${file} has no PLUGIN_API_VERSION line to update`);
const updated = source.replace(pattern, `export const PLUGIN_API_VERSION = '${version}';`);
if (updated !== source) {
  writeFileSync(file, updated);
  console.log(`PLUGIN_API_VERSION is now ${version}`);
} else {
  console.log(`PLUGIN_API_VERSION already ${version}`);
}

// The plugin starter asks new plugins for the SDK and the testkit of this release.
const testkit = JSON.parse(readFileSync(path.join(sdk, '../plugin-testkit/package.json'), 'utf8')).version;
const starter = path.join(sdk, '../create-plugin/src/versions.ts');
const starterSource = readFileSync(starter, 'utf8');
const starterUpdated = starterSource
  .replace(/export const PLUGIN_SDK_VERSION = '[^']+';/, `export const PLUGIN_SDK_VERSION = '${version}';`)
  .replace(/export const PLUGIN_TESTKIT_VERSION = '[^']+';/, `export const PLUGIN_TESTKIT_VERSION = '${testkit}';`);
if (starterUpdated !== starterSource) {
  writeFileSync(starter, starterUpdated);
  console.log(`the plugin starter now asks for plugin-sdk ^${version} and plugin-testkit ^${testkit}`);
}
