/**
 * Files of the host package, found from `import.meta.url`. A top-level module, as every module that
 * does so: from src/ (the tests, through tsx), from dist/ and from the package's bundles
 * (dist/*.bundle.js, scripts/bundle-packages.mjs) alike, ../ is the package's folder.
 */
export const HOST_PACKAGE_JSON = new URL('../package.json', import.meta.url);

/** The analysis threads' module: its bundle once built; under tsx, the source. */
export const ENGINE_THREAD_MODULE = new URL(
  import.meta.url.endsWith('.ts') ? './engine-thread.js' : './engine-thread.bundle.js',
  import.meta.url,
);
