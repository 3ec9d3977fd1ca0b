import { errorMessage } from '@cadence-detect/errors';
import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';

/** A Lua script the Redis backends run atomically, with the SHA1 Redis caches it under. */
export interface LuaScript {
  readonly lua: string;
  readonly sha: string;
}

export function luaScript(lua: string): LuaScript {
  return { lua, sha: createHash('sha1').update(lua).digest('hex') };
}

/**
 * Runs `script` by its SHA1 (EVALSHA), and sends its text (EVAL, which also caches it in Redis)
 * only when Redis does not know it: on first use and after a restart. A plain EVAL sent the whole
 * script with every call, and the store's create runs for every webhook.
 */
export async function runScript(
  redis: Redis,
  script: LuaScript,
  keys: readonly string[],
  args: ReadonlyArray<string | number>,
): Promise<unknown> {
  try {
    return await redis.evalsha(script.sha, keys.length, ...keys, ...args);
  } catch (error) {
    if (!errorMessage(error).startsWith('NOSCRIPT')) throw error;
    return redis.eval(script.lua, keys.length, ...keys, ...args);
  }
}
