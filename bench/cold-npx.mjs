// One cold `npx` and what it installed: the measure `pnpm bench install` and the release check
// share (installed size, package count, install scripts, time).
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';

/** The bytes of the files under `dir` (what `du --apparent-size` counts), links not followed. */
export function folderBytes(dir) {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true }))
    if (entry.isFile()) total += statSync(path.join(entry.parentPath, entry.name)).size;
  return total;
}

/** The packages installed in a node_modules folder, scoped ones as `@scope/name`. */
export function installedPackages(modules) {
  return readdirSync(modules)
    .filter((n) => !n.startsWith('.'))
    .flatMap((n) => (n.startsWith('@') ? readdirSync(path.join(modules, n)).map((s) => `${n}/${s}`) : [n]));
}

/**
 * `npx --yes <package> version` (or `-p <package> <bin> version`) with an empty cache of its own:
 * how long a CI job's first run waits, and what npx installed (its one folder under the cache's
 * _npx). The cache is removed afterwards unless `keep`.
 */
export function coldNpx({ env, cache, cwd, packageName, bin, timeoutMs = 300_000, keep = false }) {
  mkdirSync(cwd, { recursive: true });
  const args = bin ? ['--yes', '-p', packageName, bin, 'version'] : ['--yes', packageName, 'version'];
  const started = performance.now();
  const out = spawnSync('npx', args, {
    cwd,
    env: { ...env, npm_config_cache: cache },
    encoding: 'utf8',
    timeout: timeoutMs,
  });
  const ms = performance.now() - started;
  if (out.status !== 0)
    throw new Error(`npx ${args.join(' ')} exited ${out.status ?? out.signal}\n${(out.stderr ?? '').slice(-2000)}`);
  const installs = readdirSync(path.join(cache, '_npx'));
  if (installs.length !== 1) throw new Error(`npx left ${installs.length} installs under ${cache}/_npx`);
  const modules = path.join(cache, '_npx', installs[0], 'node_modules');
  const names = installedPackages(modules);
  const withInstallScripts = names.filter((name) => {
    const manifest = JSON.parse(readFileSync(path.join(modules, name, 'package.json'), 'utf8'));
    return ['preinstall', 'install', 'postinstall'].some((s) => manifest.scripts?.[s]);
  });
  const bytes = folderBytes(modules);
  if (!keep) rmSync(cache, { recursive: true, force: true });
  return { ms, bytes, packages: names.length, names, withInstallScripts };
}
