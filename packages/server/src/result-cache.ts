import { LRUCache } from 'lru-cache';
import type { ResultCache } from '@cadence-detect/engine';
import type { AnalysisResult } from '@cadence-detect/plugin-sdk';
import type { ServerMetrics } from './metrics.js';

export interface CacheStats {
  hits: number;
  misses: number;
  size: number;
  bytes: number;
  max_bytes: number;
}

/** The result cache as the server's routes see it: the engine's interface plus stats and clear. */
export interface ServerResultCache extends ResultCache {
  stats(): Promise<CacheStats>;
  clear(): Promise<void>;
}

/**
 * Analysis results by key (the engine builds keys so that a new commit or a changed configuration
 * misses), bounded in bytes by `cache.max_size`: an entry's size is its JSON length.
 */
export class SizedResultCache implements ServerResultCache {
  private readonly cache: LRUCache<string, AnalysisResult>;
  hits = 0;
  misses = 0;

  constructor(
    maxBytes: number,
    private readonly metrics: ServerMetrics,
  ) {
    this.cache = new LRUCache<string, AnalysisResult>({
      maxSize: Math.max(1, maxBytes),
      sizeCalculation: (value) => Math.max(1, JSON.stringify(value).length),
    });
  }

  get(key: string): AnalysisResult | undefined {
    const value = this.cache.get(key);
    if (value) {
      this.hits++;
      this.metrics.cacheHits.inc();
    } else {
      this.misses++;
      this.metrics.cacheMisses.inc();
    }
    return value;
  }

  set(key: string, result: AnalysisResult): void {
    // An entry larger than the whole cache is simply not kept.
    if (JSON.stringify(result).length > this.cache.maxSize) return;
    this.cache.set(key, result);
  }

  async clear(): Promise<void> {
    this.cache.clear();
  }

  async stats(): Promise<CacheStats> {
    return {
      hits: this.hits,
      misses: this.misses,
      size: this.cache.size,
      bytes: this.cache.calculatedSize,
      max_bytes: this.cache.maxSize,
    };
  }
}
