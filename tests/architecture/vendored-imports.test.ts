import { expect } from 'chai';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sourceFilesUnder } from './source-files.js';

/**
 * Libraries that load as one module (docs/architecture.md, scripts/bundle-vendored.mjs): a package
 * imports them through its `src/vendor/<library>.ts` only, so every process loads the bundle, never
 * the library's files one by one; and simple-git, imported by the first clone, only as a type.
 */
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const VENDORED = [
  'yaml',
  'semver',
  'prom-client',
  'rate-limiter-flexible',
  'tapable',
  'picomatch',
  'proper-lockfile',
  'commander',
  'koa',
  '@koa/router',
  'koa-body',
];

function productSources(): string[] {
  const dirs = ['packages', 'plugins'].flatMap((group) =>
    readdirSync(path.join(ROOT, group)).map((name) => path.join(ROOT, group, name, 'src')),
  );
  return [...dirs, path.join(ROOT, 'host/src')]
    .filter((dir) => !dir.includes(`${path.sep}test-support${path.sep}`))
    .flatMap(sourceFilesUnder);
}

/**
 * The imports in `text` that pass by a vendor module: a vendored library by name as a value (a type
 * import is erased, so it may name the library), simple-git as a value.
 */
export function unvendoredImports(text: string, inVendorModule: boolean): string[] {
  const found: string[] = [];
  for (const match of text.matchAll(/(?:^|\n)\s*(import|export)\s+(type\s+)?[^'"]*?from\s+['"]([^'"]+)['"]/g)) {
    const [, , typeOnly, specifier] = match;
    if (!inVendorModule && !typeOnly && VENDORED.includes(specifier!)) found.push(specifier!);
    if (specifier === 'simple-git' && !typeOnly) found.push('simple-git (a value import: it loads at start)');
  }
  // A dynamic import loads the library; `import('koa').Middleware` in a type only names it.
  for (const match of text.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)(?!\.)/g)) {
    if (!inVendorModule && VENDORED.includes(match[1]!)) found.push(match[1]!);
  }
  return found;
}

describe('vendored libraries load as one module', () => {
  it('finds a library imported around its vendor module, and simple-git imported as a value', () => {
    expect(unvendoredImports("import { parse } from 'yaml';\n", false)).to.deep.equal(['yaml']);
    expect(unvendoredImports("import { parse } from 'yaml';\n", true)).to.deep.equal([]);
    expect(unvendoredImports("import { type Context } from 'koa';\n", false)).to.deep.equal(['koa']);
    expect(unvendoredImports("import type { Context } from 'koa';\n", false)).to.deep.equal([]);
    expect(unvendoredImports("const { koaBody } = await import('koa-body');\n", false)).to.deep.equal(['koa-body']);
    expect(unvendoredImports("type M = import('koa').Middleware;\n", false)).to.deep.equal([]);
    expect(unvendoredImports("import { parse } from './vendor/yaml.js';\n", false)).to.deep.equal([]);
    expect(unvendoredImports("import { simpleGit } from 'simple-git';\n", false)).to.have.length(1);
    expect(unvendoredImports("import type { SimpleGit } from 'simple-git';\n", false)).to.deep.equal([]);
  });

  it('no product source imports a vendored library (yaml, koa, tapable and the rest) but its vendor module', () => {
    const offenders = productSources().flatMap((file) => {
      const inVendor = path.basename(path.dirname(file)) === 'vendor';
      return unvendoredImports(readFileSync(file, 'utf8'), inVendor).map(
        (what) => `${path.relative(ROOT, file)}: ${what}`,
      );
    });
    expect(offenders).to.deep.equal([]);
  });
});
