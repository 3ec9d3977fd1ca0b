/**
 * The file of a browser script bundled at build time (browser/<name>.ts →
 * dist/browser/<name>.js). A top-level module, as every module that finds a file from
 * `import.meta.url`: from src/ (the tests, through tsx), from dist/ and from the package's bundle
 * (dist/*.bundle.js, scripts/bundle-packages.mjs) alike, ../dist/browser/ is the package's folder.
 */
export function browserScriptFile(name: string): URL {
  return new URL(`../dist/browser/${name}.js`, import.meta.url);
}
