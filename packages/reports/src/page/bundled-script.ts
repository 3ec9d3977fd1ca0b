import { readFileSync } from 'node:fs';

/**
 * A browser script bundled at build time (scripts/bundle-browser-scripts.mjs: type-checked with the
 * DOM library, bundled by esbuild into the package's dist/browser/). Read once, when the module
 * that serves or inlines it loads; `pnpm build` writes it.
 */
export function bundledScript(file: URL): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    throw new Error(
      `The browser script ${file.pathname} is not built: run pnpm build (${error instanceof Error ? error.message : 'unreadable'})`,
      {
        cause: error,
      },
    );
  }
}
