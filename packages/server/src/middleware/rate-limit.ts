import type { Middleware } from 'koa';
import { RateLimiterMemory, RateLimiterRes, type RateLimiterAbstract } from '../vendor/rate-limiter-flexible.js';
import { HttpError } from '@cadence-detect/errors';

/**
 * Makes the limiter of one route group (docs/http-api.md, Conventions). rate-limiter-flexible has memory and Redis
 * stores behind the same class; the in-memory one counts within this process.
 */
export type RateLimiterFactory = (group: string, perMinute: number) => RateLimiterAbstract;

export const inMemoryRateLimiters: RateLimiterFactory = (group, perMinute) =>
  new RateLimiterMemory({ keyPrefix: group, points: perMinute, duration: 60 });

/**
 * Limits one group of routes per client address; every response of the group carries the
 * X-RateLimit-* headers, and past the limit the answer is 429 with `retry_after`. A group's routes
 * carry this middleware themselves, so the router's matching (case-insensitive) decides what is
 * limited, never a second path pattern that could disagree with it.
 */
export function rateLimit(limiter: RateLimiterAbstract): Middleware {
  return async (ctx, next) => {
    let outcome: RateLimiterRes;
    let limited = false;
    try {
      outcome = await limiter.consume(ctx.ip);
    } catch (error) {
      if (!(error instanceof RateLimiterRes)) throw error;
      outcome = error;
      limited = true;
    }
    const resetAt = Date.now() + outcome.msBeforeNext;
    const headers = {
      'X-RateLimit-Limit': String(limiter.points),
      'X-RateLimit-Remaining': String(Math.max(0, outcome.remainingPoints)),
      'X-RateLimit-Reset': String(Math.ceil(resetAt / 1000)),
    };
    ctx.set(headers);
    if (limited) {
      const retryAfter = Math.max(1, Math.ceil(outcome.msBeforeNext / 1000));
      throw new HttpError(429, 'rate_limited', `Rate limit of ${limiter.points} requests per minute exceeded`, {
        extra: { retry_after: retryAfter },
        headers: { ...headers, 'Retry-After': String(retryAfter) },
      });
    }
    await next();
  };
}
