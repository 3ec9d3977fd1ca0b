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
  for (let dir = path.resolve(packageDir); ; dir = path.dirname(dir)) {
    // As Node does: no node_modules/node_modules.
    if (path.basename(dir) !== 'node_modules') {
      const candidate = path.join(dir, 'node_modules');
      if (existsSync(candidate)) found.push(candidate);
    }
    if (dir === path.dirname(dir)) return found;
  }
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
