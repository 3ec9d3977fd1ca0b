import { LRUCache } from 'lru-cache';
import type { ReadCommit } from './commit-record.js';

/**
 * Histories already read from repository mirrors, so that a push to a repository seen before reads
 * only its new commits (`git log <last head>..<new head>`) while the baselines still come from the
 * whole history. An entry is a copy made when it is stored, and a reader *takes* it (it leaves the
 * cache, and the reader stores its own copy back): nothing one job (or a plugin in it) changes
 * reaches the next, for one copy per read. Bounded by the commits held (least recently used out).
 */
export class HistoryCache {
  private readonly entries: LRUCache<string, { head: string; read: ReadCommit[] }>;

  constructor(maxCommits = 100_000) {
    this.entries = new LRUCache({ maxSize: maxCommits, sizeCalculation: (entry) => Math.max(1, entry.read.length) });
  }

  /** Takes the entry out: the caller owns its records and stores a copy back with `set`. */
  take(key: string): { head: string; read: ReadCommit[] } | undefined {
    const entry = this.entries.get(key);
    if (entry) this.entries.delete(key);
    return entry;
  }

  set(key: string, head: string, read: readonly ReadCommit[]): void {
    if (read.length > this.entries.maxSize) return;
    this.entries.set(key, { head, read: structuredClone([...read]) });
  }
}
