import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { PackageManifest } from './package-location.js';

export const PLUGIN_KEYWORD = 'cadence-plugin';

/** The nearest node_modules folder from `dir` upwards, or null. */
export function nearestNodeModules(dir: string): string | null {
  let current = path.resolve(dir);
  for (;;) {
    const candidate = path.join(current, 'node_modules');
    if (existsSync(candidate)) return candidate;
    const parent = path.dirname(current);
    if (parent === current) return null;
    current = parent;
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
