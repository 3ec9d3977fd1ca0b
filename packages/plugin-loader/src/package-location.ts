import { exports as resolveExports } from 'resolve.exports';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';

export interface PackageManifest {
  readonly name?: string;
  readonly version?: string;
  readonly main?: string;
  readonly exports?: unknown;
  readonly keywords?: readonly string[];
  readonly peerDependencies?: Readonly<Record<string, string>>;
}

export interface LocatedPackage {
  readonly dir: string;
  readonly manifest: PackageManifest;
}

/**
 * Finds a package folder in `within` (node_modules folders, in order), or the way Node would from
 * `fromDir` (node_modules upwards) when `within` is absent, or a path. Resolving the folder rather
 * than the entry works for ESM-only packages whose `exports` hide `./package.json`.
 */
export async function locatePackage(
  specifier: string,
  fromDir: string,
  within?: readonly string[],
): Promise<LocatedPackage | null> {
  if (isPathSpecifier(specifier)) {
    const dir = path.resolve(fromDir, specifier);
    return readManifest(dir);
  }
  const candidates = within ?? createRequire(path.join(fromDir, 'noop.js')).resolve.paths(specifier) ?? [];
  for (const modules of candidates) {
    const dir = path.join(modules, specifier);
    if (existsSync(path.join(dir, 'package.json'))) return readManifest(dir);
  }
  return null;
}

export function isPathSpecifier(specifier: string): boolean {
  return specifier.startsWith('.') || path.isAbsolute(specifier);
}

async function readManifest(dir: string): Promise<LocatedPackage | null> {
  try {
    const manifest = JSON.parse(await readFile(path.join(dir, 'package.json'), 'utf8')) as PackageManifest;
    return { dir, manifest };
  } catch {
    return null;
  }
}

/** The file `import(name)` would load: the package's `exports` for `.` under Node's ESM conditions, else `main`, else index.js. */
export function entryFile(located: LocatedPackage): string {
  const fromExports =
    located.manifest.exports === undefined
      ? undefined
      : resolveExports(located.manifest as Parameters<typeof resolveExports>[0], '.', {
          conditions: ['node', 'import'],
          unsafe: false,
        })?.[0];
  return path.resolve(located.dir, fromExports ?? located.manifest.main ?? 'index.js');
}
