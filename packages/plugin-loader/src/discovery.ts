import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { PackageManifest } from './package-location.js';

export const PLUGIN_KEYWORD = 'cadence-plugin';

/**
 * The node_modules folders Node searches from a package's folder, nearest first, those that exist:
 * for the host package, the installation it runs from (its own node_modules, the folder it was
 * installed into, and that folder's parents), never the working directory's.
 */
export function installationNodeModules(packageDir: string): string[] {
  const found: string[] = [];
  const own = path.join(path.resolve(packageDir), 'node_modules');
  if (existsSync(own)) found.push(own);
  // The nearest folder named node_modules that holds the package: a project's, or a global
  // prefix's lib/node_modules. Nothing above it: a `node_modules` in a parent folder (a shared
  // /tmp, a runner's work folder) is anybody's.
  for (let dir = path.dirname(path.resolve(packageDir)); dir !== path.dirname(dir); dir = path.dirname(dir)) {
    if (path.basename(dir) !== 'node_modules') continue;
    found.push(dir);
    // pnpm keeps packages in <project>/node_modules/.pnpm/<name>/node_modules: the project's own
    // node_modules holds the package too.
    const store = dir.split(path.sep).lastIndexOf('.pnpm');
    if (store > 0) {
      const project = dir.split(path.sep).slice(0, store).join(path.sep);
      if (path.basename(project) === 'node_modules' && existsSync(project)) found.push(project);
    }
    break;
  }
  return found;
}

/** Package names in `modulesDir` (scoped ones included) whose package.json has the keyword. */
export async function discoverPluginPackages(modulesDir: string): Promise<string[]> {
  const names: string[] = [];
  for (const entry of await safeReaddir(modulesDir)) {
    if (entry.startsWith('.')) continue;
    if (entry.startsWith('@')) {
      for (const scoped of await safeReaddir(path.join(modulesDir, entry))) names.push(`${entry}/${scoped}`);
    } else {
      names.push(entry);
    }
  }
  const found: string[] = [];
  for (const name of names.sort()) {
    const manifest = await readManifest(path.join(modulesDir, name, 'package.json'));
    if (manifest?.keywords?.includes(PLUGIN_KEYWORD)) found.push(name);
  }
  return found;
}

async function safeReaddir(dir: string): Promise<string[]> {
  try {
    return await readdir(dir);
  } catch {
    return [];
  }
}

async function readManifest(file: string): Promise<PackageManifest | null> {
  try {
    return JSON.parse(await readFile(file, 'utf8')) as PackageManifest;
  } catch {
    return null;
  }
}
