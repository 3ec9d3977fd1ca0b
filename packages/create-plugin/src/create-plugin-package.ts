import { lstat, mkdir, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { starterFiles, type StarterNames } from './templates.js';

/** A refusal the command line prints as one line and exits 2 for. */
export class StarterError extends Error {
  override readonly name = 'StarterError';
}

/** npm's rules for a package name: lowercase, URL-safe, at most 214 characters, an optional scope. */
const PACKAGE_NAME = /^(?:@[a-z0-9][a-z0-9._~-]*\/)?[a-z0-9][a-z0-9._~-]*$/;
const PREFIX = 'cadence-plugin-';

/**
 * The names a package name gives: `cadence-plugin-big-commits` (or `@acme/cadence-plugin-big-commits`)
 * is the plugin `big-commits`; a name without the prefix gets it (`big-commits` is the package
 * `cadence-plugin-big-commits`), so that plugins are found by name as well as by keyword.
 */
export function starterNames(requested: string): StarterNames {
  const name = requested.trim();
  const slash = name.indexOf('/');
  const scope = name.startsWith('@') && slash > 0 ? name.slice(0, slash + 1) : '';
  const bare = scope ? name.slice(slash + 1) : name;
  const pluginName = bare.startsWith(PREFIX) ? bare.slice(PREFIX.length) : bare;
  const packageName = `${scope}${PREFIX}${pluginName}`;
  if (
    !pluginName ||
    !PACKAGE_NAME.test(packageName) ||
    packageName.length > 214 ||
    !/^[a-z0-9][a-z0-9-]*$/.test(pluginName)
  )
    throw new StarterError(
      `"${requested}" cannot name a plugin: use lowercase letters, digits and dashes (e.g. big-commits or @acme/cadence-plugin-big-commits)`,
    );
  return { packageName, pluginName };
}

/**
 * Writes a new plugin package into `directory` (which must not exist or be empty): its files, and
 * nothing else (no install: the next step says how). Returns the paths written, in order.
 */
export async function createPluginPackage(requested: string, directory: string): Promise<string[]> {
  const names = starterNames(requested);
  // A link (to an empty folder, or dangling) would aim the files somewhere the user did not name.
  const stat = await lstat(directory).catch(() => null);
  if (stat?.isSymbolicLink())
    throw new StarterError(`${directory} is a link: name a plain folder (nothing was written)`);
  const existing = await readdir(directory).catch((caught: unknown) => {
    const code = caught instanceof Error && 'code' in caught ? caught.code : undefined;
    if (code === 'ENOENT') return [];
    if (code === 'ENOTDIR') throw new StarterError(`${directory} is a file, not a folder`);
    throw caught;
  });
  if (existing.length > 0)
    throw new StarterError(`${directory} is not empty: choose a new folder (nothing was written)`);
  const written: string[] = [];
  for (const [file, text] of Object.entries(starterFiles(names))) {
    const target = path.join(directory, file);
    await mkdir(path.dirname(target), { recursive: true });
    // 'wx': never over a file that appeared meanwhile.
    await writeFile(target, text, { flag: 'wx' });
    written.push(file);
  }
  return written;
}
