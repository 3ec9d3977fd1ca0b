import { lstat, readdir } from 'node:fs/promises';
import path from 'node:path';

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

/**
 * Calls `onExceeded` once when the folder grows past `maxBytes`, checking every `intervalMs`
 * while a clone runs (decisions §7: the cap is enforced during the clone, not after it).
 */
export function watchDirectorySize(dir: string, maxBytes: number, onExceeded: (bytes: number) => void, intervalMs = 100): () => void {
  let stopped = false;
  let running = false;
  const timer = setInterval(() => {
    if (running || stopped) return;
    running = true;
    void directorySize(dir)
      .then((bytes) => {
        if (!stopped && bytes > maxBytes) {
          stopped = true;
          clearInterval(timer);
          onExceeded(bytes);
        }
      })
      .finally(() => {
        running = false;
      });
  }, intervalMs);
  timer.unref();
  return () => {
    stopped = true;
    clearInterval(timer);
  };
}
