// One module once built (scripts/bundle-vendored.mjs bundles it): what this package uses of rate-limiter-flexible.
export { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
export type { RateLimiterAbstract } from 'rate-limiter-flexible';
