// The browser scripts' build (`pnpm build` runs it after `tsc -b`, which type-checks them against
// the DOM library through each package's browser/tsconfig.json): esbuild bundles each page's
// script, with the modules it imports, into one minified IIFE under its package's dist/browser/,
// which the package publishes. The report inlines its bundle (allowed by its hash, so a saved report
// works from file://); the server serves the dashboard's under their content hashes.
import { build } from 'esbuild';
import { writeIfChanged } from './write-if-changed.mjs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Each page's script: its source under <package>/browser/, its bundle under <package>/dist/browser/. */
export const BROWSER_SCRIPTS = [
  { pkg: 'packages/reports', name: 'report' },
  { pkg: 'packages/reports', name: 'sortable' },
  { pkg: 'packages/server', name: 'dashboard' },
  { pkg: 'packages/server', name: 'login' },
  { pkg: 'packages/server', name: 'job' },
];

const started = performance.now();
await Promise.all(
  BROWSER_SCRIPTS.map(async ({ pkg, name }) => {
    const outfile = path.join(root, pkg, 'dist', 'browser', `${name}.js`);
    const built = await build({
      entryPoints: [path.join(root, pkg, 'browser', `${name}.ts`)],
      outfile,
      write: false,
      bundle: true,
      format: 'iife',
      platform: 'browser',
      // What the report's and the dashboard's browsers run (docs/report.md).
      target: 'es2022',
      minify: true,
      legalComments: 'none',
      charset: 'utf8',
      logLevel: 'warning',
    });
    await writeIfChanged(outfile, built.outputFiles[0].text);
  }),
);
console.log(`bundled ${BROWSER_SCRIPTS.length} browser scripts in ${Math.round(performance.now() - started)} ms`);
