import { runLight } from './light-spawner.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export interface CliRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** The committed bin of the host package (what `pnpm exec cadence` runs). */
export const CADENCE_BIN = path.resolve(fileURLToPath(new URL('.', import.meta.url)), '../../../host/bin/cadence.js');

/**
 * Runs the real `cadence` CLI as a process. `process.execPath` on purpose: under the Node 22 CI run
 * the CLI runs on Node 22 too. `bin` runs another installation's (a deployment's copy).
 */
let cacheHome: string | undefined;

/**
 * The cache folder of the CLI processes a test process starts (`XDG_CACHE_HOME`): one of its own,
 * removed when it exits, so no test reads or fills the user's `~/.cache/cadence`.
 */
export function testCacheHome(): string {
  if (cacheHome === undefined) {
    const made = mkdtempSync(path.join(tmpdir(), 'cadence-test-cache-'));
    cacheHome = made;
    process.once('exit', () => rmSync(made, { recursive: true, force: true }));
  }
  return cacheHome;
}

/**
 * What a `cadence` process a test starts inherits of the test run's Node settings: the compile cache
 * folder `.ci/run` sets for Node 22 (the CLI and servers start hundreds of times; each start
 * compiles the same modules), when there is one. Node 20 reads no such variable.
 */
export function nodeSettingsEnv(): Record<string, string> {
  const cache = process.env.NODE_COMPILE_CACHE;
  return cache ? { NODE_COMPILE_CACHE: cache } : {};
}

export function runCadence(
  args: readonly string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv; timeoutMs?: number; bin?: string },
): Promise<CliRun> {
  // From the light spawner: the test process is large, and a CLI run is started hundreds of times.
  return runLight(process.execPath, [options.bin ?? CADENCE_BIN, ...args], {
    cwd: options.cwd,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      XDG_CACHE_HOME: testCacheHome(),
      ...nodeSettingsEnv(),
      ...options.env,
    },
    timeoutMs: options.timeoutMs ?? 60_000,
  });
}
