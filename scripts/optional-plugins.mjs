// The catalogue of optional plugins the CLI names install hints from (host/dist/optional-plugins.json),
// read from the plugins themselves: every plugin the umbrella package (@cadence-detect/cadence)
// brings beside the CLI and the server, with its own name, the forge it brings and the top-level
// section it owns. Adding a forge plugin to the umbrella package is all it takes for a setting that
// needs it to name its package: the host holds no list. Runs in `pnpm build`, after tsc.
import { readFileSync, readdirSync, writeFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const readJson = (file) => JSON.parse(readFileSync(file, 'utf8'));
const NOT_PLUGINS = new Set(['@cadence-detect/cli', '@cadence-detect/server']);

/** Each workspace plugin's folder by package name. */
function workspacePlugins() {
  const folders = new Map();
  for (const name of readdirSync(path.join(root, 'plugins'))) {
    const manifest = path.join(root, 'plugins', name, 'package.json');
    if (existsSync(manifest)) folders.set(readJson(manifest).name, path.join(root, 'plugins', name));
  }
  return folders;
}

async function entryOf(packageName, dir) {
  const manifest = readJson(path.join(dir, 'package.json'));
  const main = manifest.exports?.['.']?.default ?? manifest.main;
  if (typeof main !== 'string') throw new Error(`${packageName}: no entry point in its package.json`);
  const plugin = (await import(pathToFileURL(path.join(dir, main)).href)).default;
  if (typeof plugin?.name !== 'string') throw new Error(`${packageName}: its default export is not a plugin`);
  return {
    packageName,
    plugin: plugin.name,
    forge: typeof plugin.forge?.name === 'string' ? plugin.forge.name : null,
    configKey: typeof plugin.meta?.configKey === 'string' ? plugin.meta.configKey : null,
  };
}

const umbrella = readJson(path.join(root, 'packages', 'cadence', 'package.json'));
const folders = workspacePlugins();
const catalogue = [];
for (const packageName of Object.keys(umbrella.dependencies ?? {}).sort()) {
  if (NOT_PLUGINS.has(packageName)) continue;
  const dir = folders.get(packageName);
  if (!dir) throw new Error(`${packageName}: the umbrella package depends on it, but no workspace plugin is named so`);
  catalogue.push(await entryOf(packageName, dir));
}
writeFileSync(path.join(root, 'host', 'dist', 'optional-plugins.json'), `${JSON.stringify(catalogue, null, 2)}\n`);
