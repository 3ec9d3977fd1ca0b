// TypeBox in one file (`pnpm build` runs it after `tsc -b`): the plugin SDK's
// `@cadence-detect/plugin-sdk/typebox` (Type and Value). TypeBox ships as some 680 small ES modules,
// and resolving and linking them cost every `cadence` process about 230 ms of its start (more than a
// third of `cadence webhook`'s); the same code as one module loads in about 12 ms. It is TypeBox's
// own code, unchanged, with its licence; the types stay TypeBox's (packages/plugin-sdk/typebox.d.mts).
import { build } from 'esbuild';
import { writeIfChanged } from './write-if-changed.mjs';
import { readFile, realpath } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const sdk = path.join(root, 'packages/plugin-sdk');
const out = path.join(sdk, 'dist/typebox.mjs');

// The copy the SDK depends on (its package.json is not among TypeBox's exports: found by folder).
const typeboxDir = await realpath(path.join(sdk, 'node_modules/typebox'));
const { version } = JSON.parse(await readFile(path.join(typeboxDir, 'package.json'), 'utf8'));
const licence = await readFile(path.join(typeboxDir, 'license'), 'utf8');

const result = await build({
  stdin: {
    contents: "export { default as Type } from 'typebox';\nexport { default as Value } from 'typebox/value';\n",
    resolveDir: sdk,
    sourcefile: 'typebox-entry.mjs',
  },
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  write: false,
  legalComments: 'none',
  banner: {
    js: `// TypeBox ${version}, bundled into one module by scripts/bundle-typebox.mjs.\n/*\n${licence.trim()}\n*/`,
  },
});
const text = result.outputFiles[0].text;
await writeIfChanged(out, text);
console.log(
  `bundled TypeBox ${version} into packages/plugin-sdk/dist/typebox.mjs (${Math.round(text.length / 1024)} KB)`,
);
