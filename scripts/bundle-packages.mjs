// Each workspace package's entry points as one module apiece (`pnpm build` runs it after `tsc -b`
// and the vendored bundles): `dist/<entry>.bundle.js` holds the package's own modules that entry
// reaches, other packages and libraries left as imports, and the modules two entries share (or an
// entry imports lazily) in chunks beside them, so lazy imports stay lazy. Node's ESM loader spends
// about 1.8 ms on each module it resolves, reads and links: a server's start loads 97 modules
// instead of 373, a small `cadence analyze` 75 instead of 274 (docs/architecture.md). The package's `exports` name the bundles; tsc's own output stays as it is
// (the next incremental build reads it), and the declarations are tsc's.
//
// Everything is written at the level of `dist/`, where tsc writes `src/`'s top-level modules: a
// module that finds a file from `import.meta.url` (a model, a browser script) does so from a
// top-level module, so the same relative path holds bundled or not.
import { build } from 'esbuild';
import { readdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeIfChanged } from './write-if-changed.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BUNDLE = /\.bundle\.js$/;
const CHUNK = /^chunk-[A-Z0-9]+\.js$/;

/** The workspace's packages whose `exports` name bundles. */
async function bundledPackages() {
  const dirs = [];
  const candidates = [path.join(root, 'host')];
  for (const group of ['packages', 'plugins'])
    for (const entry of await readdir(path.join(root, group), { withFileTypes: true }))
      if (entry.isDirectory()) candidates.push(path.join(root, group, entry.name));
  for (const dir of candidates) {
    const manifest = JSON.parse(await readFile(path.join(dir, 'package.json'), 'utf8').catch(() => '{}'));
    // What `exports` names, and the host's entries that only its own bin and threads load.
    const targets = [
      ...Object.values(manifest.exports ?? {}).map((target) => target?.default ?? target),
      ...(manifest.bundledEntries ?? []),
    ].filter((target) => typeof target === 'string' && BUNDLE.test(target));
    if (targets.length > 0) dirs.push({ dir, targets });
  }
  return dirs;
}

async function bundlePackage({ dir, targets }) {
  const dist = path.join(dir, 'dist');
  // `dist/index.bundle.js` comes from `dist/index.js`, `dist/jobs.analysis-threads.bundle.js` from
  // `dist/jobs/analysis-threads.js` (a dot for each folder).
  const entryPoints = targets.map((target) => {
    const name = path.basename(target).replace(BUNDLE, '');
    return { in: path.join(dist, `${name.split('.').join('/')}.js`), out: `${name}.bundle` };
  });
  const built = await build({
    entryPoints,
    outdir: dist,
    // Each module in a bundle stays named by its path from here (a comment line): tests read them.
    absWorkingDir: root,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    // depd (vendored with koa) builds its wrappers with eval, as it does unbundled.
    logOverride: { 'direct-eval': 'silent' },
    chunkNames: 'chunk-[hash]',
    logLevel: 'warning',
    legalComments: 'inline',
    write: false,
  });
  // Written only when changed, by rename (write-if-changed.mjs): the release check builds while
  // the other test runs load these files. A chunk no bundle names any more goes (its name is a
  // hash of its content, so an unchanged build removes none).
  const written = new Set();
  for (const output of built.outputFiles) {
    await writeIfChanged(output.path, output.text);
    written.add(path.basename(output.path));
  }
  for (const file of await readdir(dist))
    if ((BUNDLE.test(file) || CHUNK.test(file)) && !written.has(file)) await rm(path.join(dist, file), { force: true });
  return entryPoints.length;
}

const started = performance.now();
const packages = await bundledPackages();
let entries = 0;
for (const item of packages) entries += await bundlePackage(item);
console.log(
  `bundled ${entries} entry points of ${packages.length} packages in ${Math.round(performance.now() - started)} ms`,
);
