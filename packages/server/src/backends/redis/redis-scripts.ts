import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';

/** A Lua script the Redis backends run atomically, with the SHA1 Redis caches it under. */
export interface LuaScript {
  readonly keys: number;
  readonly lua: string;
  readonly sha: string;
}

export function luaScript(keys: number, lua: string): LuaScript {
  return { keys, lua, sha: createHash('sha1').update(lua).digest('hex') };
}

/**
 * Runs `script` by its SHA1 (EVALSHA), and sends its text (EVAL, which also caches it in Redis)
 * only when Redis does not know it: on first use and after a restart. A plain EVAL sent the whole
 * script with every call, and the store's create runs once per webhook. (ioredis's defineCommand
 * does the same but breaks its auto-pipelining, which the command connection uses.)
 */
export async function runScript(redis: Redis, script: LuaScript, ...args: Array<string | number>): Promise<unknown> {
  try {
    return await redis.evalsha(script.sha, script.keys, ...args);
  } catch (error) {
    if (!String((error as Error).message).startsWith('NOSCRIPT')) throw error;
    return redis.eval(script.lua, script.keys, ...args);
  }
}
