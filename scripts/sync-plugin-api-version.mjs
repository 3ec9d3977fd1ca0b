// Run by `pnpm version-packages` after `changeset version`: the plugin SDK's package version IS the
// plugin API version, so PLUGIN_API_VERSION in packages/plugin-sdk/src/version.ts is rewritten to
// the version Changesets just gave the SDK. `pnpm release:check` refuses the two apart.
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
