#!/usr/bin/env node
/**
 * Writes the npm-shrinkwrap.json of each package a CI job installs: the CLI (host/) and the forge
 * plugins (the `cadence-forge` keyword), whose runners `cadence ci <forge>` runs. A job installs the
 * CLI and its forge's plugin (`npm install @cadence-detect/cli @cadence-detect/plugin-github`, the
 * GitHub Action, the GitLab and Bitbucket templates, the Gitea workflow): each package's tree is
 * fixed at release time instead of whatever the `^` ranges resolve to on the day. Run after every
 * other public package is published and before these are (`pnpm release` and `pnpm release:check`
 * do): npm resolves each one's dependencies, as it will be published, from the registry, so the
 * project's own packages are pinned to the tarballs just published (their integrity included) and
 * every other package to one version and integrity.
 *
 *   node scripts/shrinkwrap.mjs [--registry <url>]   (every shrinkwrapped package)
 *   node scripts/shrinkwrap.mjs --check              (a shrinkwrapped package's prepublishOnly, in its
 *                                                     folder: refuses to publish without a file that
 *                                                     matches its version and dependencies)
 *
 * The `resolved` addresses are written against registry.npmjs.org, which npm replaces with the
 * registry its user configures (its `replace-registry-host` default): the tree, not the host, is
 * what the file fixes. No shell; npm runs with --ignore-scripts.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(fileURLToPath(new URL('.', import.meta.url)), '..');
const cliDir = path.join(root, 'host');
const PUBLIC_REGISTRY = 'https://registry.npmjs.org/';
const FORGE_KEYWORD = 'cadence-forge';

/** The folders of the packages a CI job installs, the CLI last (it is published last). */
export async function shrinkwrappedDirs() {
  const plugins = path.join(root, 'plugins');
  const forges = [];
  for (const name of (await readdir(plugins)).sort()) {
    const manifest = await readFile(path.join(plugins, name, 'package.json'), 'utf8').then(JSON.parse, () => null);
    if (manifest?.keywords?.includes(FORGE_KEYWORD) && !manifest.private) forges.push(path.join(plugins, name));
  }
  return [...forges, cliDir];
}

function run(command, args, options) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0
        ? resolve(stdout)
        : reject(new Error(`${command} ${args.join(' ')} exited with ${code}\n${stderr.trim()}`)),
    );
  });
}

/** Every workspace package's version by name: what `workspace:` ranges become when published. */
async function workspaceVersions() {
  const listed = JSON.parse(
    await run('pnpm', ['-r', 'ls', '--depth', '-1', '--json'], { cwd: root, env: process.env }),
  );
  return new Map(listed.filter((p) => p.name).map((p) => [p.name, p.version]));
}

/** A package.json as `pnpm publish` writes it: `workspace:` ranges made exact, no dev dependencies or scripts. */
function publishedManifest(manifest, versions) {
  const dependencies = Object.fromEntries(
    Object.entries(manifest.dependencies ?? {}).map(([name, range]) => {
      if (!range.startsWith('workspace:')) return [name, range];
      const version = versions.get(name);
      if (!version) throw new Error(`${name} is not a workspace package`);
      return [name, version];
    }),
  );
  const { devDependencies: _dev, scripts: _scripts, ...rest } = manifest;
  return { ...rest, dependencies };
}

function parseArgs(argv) {
  const at = argv.indexOf('--registry');
  return { registry: at >= 0 ? argv[at + 1] : undefined, check: argv.includes('--check') };
}

/** Throws unless the package's npm-shrinkwrap.json was written for it as it is now (its version and dependencies). */
export async function checkShrinkwrap(dir = process.cwd()) {
  const file = path.join(dir, 'npm-shrinkwrap.json');
  let lock;
  try {
    lock = JSON.parse(await readFile(file, 'utf8'));
  } catch {
    throw new Error(
      `${path.relative(root, file)} is missing: run node scripts/shrinkwrap.mjs after publishing the other packages (pnpm release does)`,
    );
  }
  const manifest = publishedManifest(
    JSON.parse(await readFile(path.join(dir, 'package.json'), 'utf8')),
    await workspaceVersions(),
  );
  const rootEntry = lock.packages?.[''] ?? {};
  const same =
    lock.name === manifest.name &&
    lock.version === manifest.version &&
    JSON.stringify(sorted(rootEntry.dependencies)) === JSON.stringify(sorted(manifest.dependencies));
  if (!same)
    throw new Error(
      `${path.relative(root, file)} was written for ${lock.name}@${lock.version} with other dependencies: run node scripts/shrinkwrap.mjs again`,
    );
  return { file, packages: Object.keys(lock.packages).length - 1 };
}

function sorted(record = {}) {
  return Object.fromEntries(Object.entries(record).sort(([a], [b]) => a.localeCompare(b)));
}

/** Writes `dir`'s npm-shrinkwrap.json from the registry (its own packages must be published already). */
export async function writeShrinkwrap(dir, { registry, env = process.env, cache } = {}) {
  const versions = await workspaceVersions();
  const manifest = publishedManifest(JSON.parse(await readFile(path.join(dir, 'package.json'), 'utf8')), versions);
  const folder = await mkdtemp(path.join(tmpdir(), 'cadence-shrinkwrap-'));
  try {
    await writeFile(path.join(folder, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
    const npmEnv = Object.fromEntries(
      Object.entries(env).filter(([key]) => !/^npm_(lifecycle|package|config_(workspace|prefix|local))/i.test(key)),
    );
    await run(
      'npm',
      [
        'install',
        '--package-lock-only',
        '--ignore-scripts',
        '--no-audit',
        '--no-fund',
        '--no-update-notifier',
        '--loglevel=error',
        ...(registry ? ['--registry', registry] : []),
      ],
      { cwd: folder, env: { ...npmEnv, npm_config_cache: cache ?? path.join(folder, 'cache') } },
    );
    const lock = JSON.parse(await readFile(path.join(folder, 'package-lock.json'), 'utf8'));
    const from = new URL(
      registry ?? (await run('npm', ['config', 'get', 'registry'], { cwd: folder, env: npmEnv })).trim(),
    );
    const prefix = `${from.origin}${from.pathname.endsWith('/') ? from.pathname : `${from.pathname}/`}`;
    for (const [where, entry] of Object.entries(lock.packages)) {
      if (!where) continue;
      if (typeof entry.resolved === 'string' && entry.resolved.startsWith(prefix))
        entry.resolved = PUBLIC_REGISTRY + entry.resolved.slice(prefix.length);
      const name = where.slice(where.lastIndexOf('node_modules/') + 'node_modules/'.length);
      // The project's own packages must be the versions published together (docs/install.md).
      if (versions.has(name) && entry.version !== versions.get(name))
        throw new Error(
          `${where} resolved to ${entry.version}, not the workspace's ${versions.get(name)}: publish every other package first`,
        );
      if (!entry.integrity && !entry.link) throw new Error(`${where} has no integrity in the lock`);
    }
    const file = path.join(dir, 'npm-shrinkwrap.json');
    await writeFile(file, `${JSON.stringify(lock, null, 2)}\n`);
    return { file, packages: Object.keys(lock.packages).length - 1 };
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = parseArgs(process.argv.slice(2));
  const written = async () => {
    const out = [];
    for (const dir of await shrinkwrappedDirs()) out.push(await writeShrinkwrap(dir, args));
    return out;
  };
  (args.check ? checkShrinkwrap().then((one) => [one]) : written()).then(
    (files) => {
      for (const { file, packages } of files)
        process.stdout.write(`${path.relative(root, file)}: ${packages} packages\n`);
    },
    (error) => {
      process.stderr.write(`shrinkwrap: ${error.message}\n`);
      process.exit(1);
    },
  );
}
