import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export interface ImportRecorder {
  /** Environment for a process to record into this recorder: NODE_OPTIONS loads the hook first. */
  readonly env: NodeJS.ProcessEnv;
  /** Forgets what was recorded (before the next process). */
  clear(): Promise<void>;
  /**
   * Every URL resolved since the last clear, in order; a workspace package's bundle or chunk
   * (scripts/bundle-packages.mjs) is followed by the modules it holds, so a test can say which of a
   * package's modules a process loaded whether they come one by one or bundled.
   */
  urls(): Promise<string[]>;
}

const BUNDLE_FILE = /^(.*)\/(?:(?:packages|plugins)\/[^/]+|host)\/dist\/[^/]+\.js$/;
/** esbuild's line naming each module it put in a bundle (a path from the workspace's root). */
const BUNDLED_MODULE = /^\/\/ ((?:packages|plugins|host)\/\S+\.[cm]?js)$/gm;

/** `url`, then the modules a bundle at `url` holds. */
async function withBundledModules(url: string): Promise<string[]> {
  const file = url.startsWith('file:') ? fileURLToPath(url) : null;
  const root = file ? BUNDLE_FILE.exec(file)?.[1] : undefined;
  if (!file || root === undefined) return [url];
  const text = await readFile(file, 'utf8').catch(() => '');
  return [url, ...[...text.matchAll(BUNDLED_MODULE)].map((match) => pathToFileURL(path.join(root, match[1]!)).href)];
}

/**
 * What a process imports, seen from inside it: a module hook, loaded with NODE_OPTIONS=--import,
 * appends every URL the process (and each worker thread, which inherits the option) resolves to a
 * log in `dir`. Start-up time is a benchmark's business; this lets a test keep its cause from
 * regressing (a static import of something heavy where it is not needed).
 */
export async function importRecorder(dir: string): Promise<ImportRecorder> {
  const log = path.join(dir, 'imports.log');
  const hooks = path.join(dir, 'record-hooks.mjs');
  await writeFile(
    hooks,
    "import { appendFileSync } from 'node:fs';\nlet log;\nexport function initialize(data) { log = data.log; }\n" +
      'export async function resolve(specifier, context, next) {\n  const resolved = await next(specifier, context);\n  appendFileSync(log, `${resolved.url}\\n`);\n  return resolved;\n}\n',
  );
  const register = path.join(dir, 'record-imports.mjs');
  await writeFile(
    register,
    `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(hooks).href)}, { data: { log: ${JSON.stringify(log)} } });\n`,
  );
  return {
    env: { NODE_OPTIONS: `--import ${pathToFileURL(register).href}` },
    clear: () => rm(log, { force: true }),
    urls: async () => {
      const resolved = (await readFile(log, 'utf8').catch(() => '')).split('\n').filter(Boolean);
      return (await Promise.all(resolved.map(withBundledModules))).flat();
    },
  };
}
