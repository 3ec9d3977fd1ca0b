import type { Middleware } from 'koa';
import { HttpError } from '@cadence/errors';

/** Fixed-window counters (decisions §9). In memory today; Redis later so limits hold across processes. */
export interface RateLimitCounter {
  /** Counts one hit of `key` in the current window and returns the count and the window's end (ms). */
  hit(key: string, windowMs: number): Promise<{ count: number; resetAt: number }>;
}

export class InMemoryRateLimitCounter implements RateLimitCounter {
  private readonly windows = new Map<string, { count: number; resetAt: number }>();

  async hit(key: string, windowMs: number): Promise<{ count: number; resetAt: number }> {
    const now = Date.now();
    let window = this.windows.get(key);
    if (!window || window.resetAt <= now) {
      window = { count: 0, resetAt: Math.floor(now / windowMs) * windowMs + windowMs };
      this.windows.set(key, window);
      if (this.windows.size > 100_000) this.sweep(now);
    }
    window.count++;
    return { ...window };
  }

  /** Drops finished windows: the map never grows past the clients of one window. */
  private sweep(now: number): void {
    for (const [key, window] of this.windows) if (window.resetAt <= now) this.windows.delete(key);
  }
}

const WINDOW_MS = 60_000;

/**
 * Limits one group of routes per client address; every response of the group carries the
 * X-RateLimit-* headers, and past the limit the answer is 429 with `retry_after`.
 */
export function rateLimit(group: string, limit: number, counter: RateLimitCounter): Middleware {
  return async (ctx, next) => {
    const { count, resetAt } = await counter.hit(`${group}:${ctx.ip}`, WINDOW_MS);
    const headers = {
      'X-RateLimit-Limit': String(limit),
      'X-RateLimit-Remaining': String(Math.max(0, limit - count)),
      'X-RateLimit-Reset': String(Math.ceil(resetAt / 1000)),
    };
    ctx.set(headers);
    if (count > limit) {
      const retryAfter = Math.max(1, Math.ceil((resetAt - Date.now()) / 1000));
      throw new HttpError(429, 'rate_limited', `Rate limit of ${limit} requests per minute exceeded`, {
        extra: { retry_after: retryAfter },
        headers: { ...headers, 'Retry-After': String(retryAfter) },
      });
    }
    await next();
  };
}
