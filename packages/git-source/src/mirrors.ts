import { createHash } from 'node:crypto';
import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import lockfile from './vendor/proper-lockfile.js';
import { abortError, CadenceError, errorCode, errorMessage } from '@cadence-detect/errors';
import { directorySize } from './directory-size.js';

/** Where repository mirrors live and how much they may take together (LRU eviction past it). */
export interface MirrorOptions {
  readonly dir: string;
  readonly maxBytes: number;
}

/**
 * One bare mirror per repository URL *and* credential identity: a requester's private history is
 * never read by a requester with other credentials (or none), and the URL's credentials never
 * reach the disk: the key is a hash, and the URL is given to each fetch, never stored.
 */
export function mirrorKey(url: string): string {
  const match = /^([a-z][a-z0-9+.-]*:\/\/)([^/@\s]+@)?(.*)$/i.exec(url);
  const address = match ? `${match[1]}${match[3]}` : url;
  const identity = match?.[2] ?? '';
  const hash = (text: string) => createHash('sha256').update(text).digest('hex');
  return `${hash(address).slice(0, 32)}-${hash(identity).slice(0, 12)}`;
}

/** A mirror held for one job: other processes wait for it, eviction skips it. */
export interface HeldMirror {
  readonly dir: string;
  /** Releases the lock, then records the use and evicts least recently used mirrors past the cap (in the background). */
  release(): Promise<void>;
}

const LOCK_STALE_MS = 30_000;

/**
 * Takes the lock of one repository's mirror, across processes (proper-lockfile: a lock directory
 * refreshed while held, taken over once stale, so a crashed holder does not block for ever).
 * Waits for another holder until the signal aborts (the clone timeout or a cancel), calling
 * `onWaiting` once when it starts to wait.
 */
export async function holdMirror(
  options: MirrorOptions,
  key: string,
  signal: AbortSignal,
  onWaiting: () => void = () => undefined,
): Promise<HeldMirror> {
  const dir = path.join(options.dir, `${key}.git`);
  const lockPath = path.join(options.dir, `${key}.lock`);
  let releaseLock: () => Promise<void>;
  let waiting = false;
  for (;;) {
    if (signal.aborted) throw abortError(signal);
    try {
      releaseLock = await lockfile.lock(dir, {
        realpath: false,
        lockfilePath: lockPath,
        stale: LOCK_STALE_MS,
        retries: 0,
      });
      break;
    } catch (error) {
      if (errorCode(error) !== 'ELOCKED')
        throw new CadenceError('ERR_GIT_CLONE_FAILED', {
          message: `Cannot lock the repository mirror: ${errorMessage(error)}`,
        });
      if (!waiting) onWaiting();
      waiting = true;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  return {
    dir,
    async release() {
      // A lock that cannot be released goes stale and is taken over (proper-lockfile): the job is done either way.
      await releaseLock().catch(() => undefined);
      // The bookkeeping (size, last use, eviction) runs after the job: nothing waits for it.
      void (async () => {
        await writeFile(
          path.join(options.dir, `${key}.json`),
          JSON.stringify({ last_used: Date.now(), bytes: await directorySize(dir).catch(() => 0) }),
        );
        await evictMirrors(options);
        // Bookkeeping in the background: a use not recorded only makes eviction less exact.
      })().catch(() => undefined);
    },
  };
}

/** Removes a mirror that could not be made (a first clone that failed): nothing half-made stays. */
export async function discardMirror(dir: string): Promise<void> {
  await rm(dir, { recursive: true, force: true });
}

/** Least recently used mirrors go until the rest fit `maxBytes`; a mirror in use is skipped. */
export async function evictMirrors(options: MirrorOptions): Promise<string[]> {
  const entries: { key: string; lastUsed: number; bytes: number }[] = [];
  for (const name of await readdir(options.dir).catch(() => [] as string[])) {
    if (!name.endsWith('.json')) continue;
    try {
      const meta = JSON.parse(await readFile(path.join(options.dir, name), 'utf8')) as {
        last_used: number;
        bytes: number;
      };
      entries.push({ key: name.slice(0, -'.json'.length), lastUsed: meta.last_used, bytes: meta.bytes });
    } catch {
      // A record being written: looked at next time.
    }
  }
  let total = entries.reduce((sum, e) => sum + e.bytes, 0);
  const evicted: string[] = [];
  for (const entry of entries.sort((a, b) => a.lastUsed - b.lastUsed)) {
    if (total <= options.maxBytes) break;
    const dir = path.join(options.dir, `${entry.key}.git`);
    let release: (() => Promise<void>) | null = null;
    try {
      release = await lockfile.lock(dir, {
        realpath: false,
        lockfilePath: path.join(options.dir, `${entry.key}.lock`),
        stale: LOCK_STALE_MS,
        retries: 0,
      });
    } catch {
      continue;
    }
    try {
      await rm(dir, { recursive: true, force: true });
      await rm(path.join(options.dir, `${entry.key}.json`), { force: true });
      total -= entry.bytes;
      evicted.push(entry.key);
    } finally {
      await release();
    }
  }
  return evicted;
}
