import { lstat, readdir } from 'node:fs/promises';
import path from 'node:path';
import { runGitCommand } from './git-process.js';

/** Bytes under a folder (files only, links not followed). Missing entries count zero: git renames as it goes. */
export async function directorySize(dir: string): Promise<number> {
  let total = 0;
  let entries: string[];
  try {
    entries = await readdir(dir, { recursive: true });
  } catch {
    return 0;
  }
  for (const entry of entries) {
    try {
      const info = await lstat(path.join(dir, entry));
      if (info.isFile()) total += info.size;
    } catch {
      // removed between readdir and lstat (temporary pack files)
    }
  }
  return total;
}

/** Faster than any clone grows, loopback included: what the next check's delay is reckoned with. */
const FASTEST_GROWTH_BYTES_PER_SECOND = 1024 ** 3;
/** The longest a folder goes unchecked, however far below the cap it is. */
const SLOWEST_CHECK_MS = 2000;

export interface WatchOptions {
  readonly minIntervalMs?: number;
  /** Each size measured (a test waits for the first before it makes the folder jump). */
  readonly onMeasured?: (bytes: number) => void;
}

/**
 * Calls `onExceeded` once when the folder grows past `maxBytes`, while a clone runs: the cap
 * holds during the clone, not only after it (docs/git-source.md). Each check lists and sizes the whole
 * folder, so the next one comes when the folder could first have reached the cap growing at
 * FASTEST_GROWTH_BYTES_PER_SECOND, every `minIntervalMs` at most and every 2 s at least: a clone
 * far below its cap (or waiting on a silent server) costs a check every few seconds, not a
 * folder listing every 100 ms.
 */
export function watchDirectorySize(
  dir: string,
  maxBytes: number,
  onExceeded: (bytes: number) => void,
  { minIntervalMs = 100, onMeasured = () => undefined }: WatchOptions = {},
): () => void {
  let stopped = false;
  let timer: NodeJS.Timeout;
  const schedule = (delayMs: number): void => {
    timer = setTimeout(check, delayMs);
    timer.unref();
  };
  const check = (): void => {
    void directorySize(dir).then((bytes) => {
      if (stopped) return;
      onMeasured(bytes);
      if (bytes > maxBytes) {
        stopped = true;
        onExceeded(bytes);
        return;
      }
      const untilCapMs = ((maxBytes - bytes) / FASTEST_GROWTH_BYTES_PER_SECOND) * 1000;
      schedule(Math.min(SLOWEST_CHECK_MS, Math.max(minIntervalMs, untilCapMs)));
    });
  };
  schedule(minIntervalMs);
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}

/** A repository's loose objects, packs and garbage, in bytes (`git count-objects -v`). */
export async function objectBytes(dir: string, signal: AbortSignal): Promise<number> {
  const counted = await runGitCommand(dir, ['count-objects', '-v'], signal);
  let kib = 0;
  for (const match of counted.stdout.matchAll(/^(size|size-pack|size-garbage): (\d+)$/gm)) kib += Number(match[2]);
  return kib * 1024;
}
