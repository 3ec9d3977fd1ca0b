import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { AnalysisResult } from '@cadence-detect/plugin-sdk';
import type { ServerMetrics } from '../../metrics.js';
import type { CacheStats, ServerResultCache } from '../../result-cache.js';
import { luaScript, runScript } from './redis-scripts.js';

/**
 * Analysis results shared by every worker, bounded in bytes like the in-memory cache: a sorted set
 * orders entries by last use and the least recently used go first once `cache.max_size` is passed.
 * Hits and misses are this process's counts.
 */
export class RedisResultCache implements ServerResultCache {
  private hits = 0;
  private misses = 0;

  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly maxBytes: number,
    private readonly metrics: ServerMetrics,
  ) {}

  private entryKey(key: string): string {
    return `${this.prefix}:result:${createHash('sha256').update(key).digest('hex')}`;
  }

  private get indexKey(): string {
    return `${this.prefix}:results`;
  }

  private get bytesKey(): string {
    return `${this.prefix}:results:bytes`;
  }

  async get(key: string): Promise<AnalysisResult | undefined> {
    const entry = this.entryKey(key);
    const value = await this.redis.get(entry);
    if (value) {
      this.hits++;
      this.metrics.cacheHits.inc();
      await this.redis.zadd(this.indexKey, 'XX', Date.now(), entry);
      return JSON.parse(value) as AnalysisResult;
    }
    this.misses++;
    this.metrics.cacheMisses.inc();
    return undefined;
  }

  async set(key: string, result: AnalysisResult): Promise<void> {
    const value = JSON.stringify(result);
    // An entry larger than the whole cache is simply not kept.
    if (Buffer.byteLength(value) > this.maxBytes) return;
    await runScript(
      this.redis,
      SET,
      [this.entryKey(key), this.indexKey, this.bytesKey],
      [value, Date.now(), this.maxBytes],
    );
  }

  async clear(): Promise<void> {
    await runScript(this.redis, CLEAR, [this.indexKey, this.bytesKey], []);
  }

  async stats(): Promise<CacheStats> {
    const [size, bytes] = await Promise.all([this.redis.zcard(this.indexKey), this.redis.get(this.bytesKey)]);
    return { hits: this.hits, misses: this.misses, size, bytes: Number(bytes ?? 0), max_bytes: this.maxBytes };
  }
}

// KEYS: entry, index, bytes. ARGV: value, now, max bytes.
const SET = luaScript(`
local old = redis.call('STRLEN', KEYS[1])
redis.call('SET', KEYS[1], ARGV[1])
redis.call('ZADD', KEYS[2], ARGV[2], KEYS[1])
local total = redis.call('INCRBY', KEYS[3], string.len(ARGV[1]) - old)
while total > tonumber(ARGV[3]) do
  local oldest = redis.call('ZPOPMIN', KEYS[2])
  if #oldest == 0 then break end
  total = redis.call('DECRBY', KEYS[3], redis.call('STRLEN', oldest[1]))
  redis.call('DEL', oldest[1])
end
return total
`);

// KEYS: index, bytes.
const CLEAR = luaScript(`
local entries = redis.call('ZRANGE', KEYS[1], 0, -1)
for _, entry in ipairs(entries) do redis.call('DEL', entry) end
redis.call('DEL', KEYS[1], KEYS[2])
return #entries
`);
