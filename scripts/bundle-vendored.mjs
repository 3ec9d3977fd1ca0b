// Third-party dependencies in one module each (`pnpm build` runs it after `tsc -b`). A package's
// `src/vendor/<name>.ts` re-exports what the package uses of one dependency; tsc compiles it to a
// re-export, and this script replaces that output, `dist/vendor/<name>.js`, with the same exports
// bundled into one module. yaml, semver, prom-client (with @opentelemetry/api) and
// rate-limiter-flexible ship as 30 to 70 small CommonJS files each: finding, reading and linking
// them cost every `cadence` process and analysis thread tens of milliseconds apiece, and a test run
// starts some 700 of them. It is each library's own code, unchanged, with its licence; the types
// stay the library's (tsc's `dist/vendor/<name>.d.ts` re-exports them), and the library stays a
// dependency of the package. Without this step (a bare `tsc -b`) the re-export works as well.
import { build } from 'esbuild';
import { writeIfChanged } from './write-if-changed.mjs';
import { readdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Every `<package>/src/vendor/<name>.ts` of the workspace's packages, plugins and host. */
async function vendorModules() {
  const packageDirs = [];
  for (const group of ['packages', 'plugins']) {
    for (const entry of await readdir(path.join(root, group), { withFileTypes: true }))
      if (entry.isDirectory()) packageDirs.push(path.join(root, group, entry.name));
  }
  packageDirs.push(path.join(root, 'host'));
  const modules = [];
  for (const dir of packageDirs) {
    const vendor = path.join(dir, 'src', 'vendor');
    const files = await readdir(vendor).catch(() => []);
    for (const file of files.filter((name) => name.endsWith('.ts') && !name.endsWith('.d.ts')))
      modules.push({
        dir,
        source: path.join(vendor, file),
        out: path.join(dir, 'dist', 'vendor', file.replace(/\.ts$/, '.js')),
      });
  }
  return modules;
}

/** The package folder (holding package.json) of a bundled input under node_modules. */
function packageOf(input) {
  const parts = input.split('/');
  const at = parts.lastIndexOf('node_modules');
  if (at < 0) return null;
  const length = parts[at + 1]?.startsWith('@') ? 3 : 2;
  return parts.slice(0, at + length).join('/');
}

/** Each bundled package's name, version and licence text, for the module's header. */
async function licences(inputs) {
  const dirs = [...new Set(inputs.map(packageOf).filter((dir) => dir !== null))].sort();
  const found = [];
  for (const dir of dirs) {
    const { name, version, license } = JSON.parse(await readFile(path.join(root, dir, 'package.json'), 'utf8'));
    const files = await readdir(path.join(root, dir));
    const file = files.find((f) => /^(licen[cs]e|copying)(\.md|\.txt)?$/i.test(f));
    const text = file ? (await readFile(path.join(root, dir, file), 'utf8')).trim() : `${license} (no licence file)`;
    found.push({ name, version, text });
  }
  return found;
}

/**
 * A library's JSON (mime-db's 200 KB table, which koa's mime-types loads at start) stays a string for
 * JSON.parse, as `require` would read it: V8 parses JSON several times faster than the same data as
 * an object literal in JavaScript.
 */
const jsonAsParse = {
  name: 'json-as-parse',
  setup(build) {
    build.onLoad({ filter: /\.json$/ }, async (args) => ({
      contents: `module.exports = JSON.parse(${JSON.stringify(JSON.stringify(JSON.parse(await readFile(args.path, 'utf8'))))});`,
      loader: 'js',
    }));
  },
};

async function bundle({ dir, source, out }) {
  const result = await build({
    entryPoints: [source],
    absWorkingDir: root,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    write: false,
    metafile: true,
    legalComments: 'none',
    plugins: [jsonAsParse],
    // depd (under koa) builds its wrappers with eval, as it does unbundled.
    logOverride: { 'direct-eval': 'silent' },
    // CommonJS code bundled into an ES module still calls require for Node's own modules.
    banner: {
      js: "import { createRequire as __createRequire } from 'node:module';\nconst require = __createRequire(import.meta.url);",
    },
  });
  const bundled = await licences(Object.keys(result.metafile.inputs));
  const header = [
    `// ${bundled.map((p) => `${p.name} ${p.version}`).join(', ')}: bundled into one module by scripts/bundle-vendored.mjs`,
    `// from ${path.relative(dir, source)}. Their licences:`,
    ...bundled.map((p) => `/* ${p.name} ${p.version}\n${p.text.replaceAll('*/', '* /')}\n*/`),
    '',
  ].join('\n');
  const text = header + result.outputFiles[0].text;
  await writeIfChanged(out, text);
  // tsc's map described the re-export the bundle replaced.
  await rm(`${out}.map`, { force: true });
  return { out: path.relative(root, out), packages: bundled.length, kb: Math.round(text.length / 1024) };
}

const done = await Promise.all((await vendorModules()).map(bundle));
console.log(
  `bundled ${done.length} vendored dependencies: ${done.map((d) => `${d.out} (${d.packages} packages, ${d.kb} KB)`).join(', ')}`,
);
