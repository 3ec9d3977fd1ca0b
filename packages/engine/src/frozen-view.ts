import { deepFreeze } from '@cadence-detect/plugin-loader';

/**
 * A deep, frozen copy: what every plugin of one job reads. Freezing only the top left nested
 * objects writable, so a `beforeAnalysis` tap setting `ctx.config.thresholds.suspicious_additions = 1` changed every
 * later job without the cache key noticing.
 */
export function frozenCopy<T>(value: T): T {
  return deepFreeze(structuredClone(value));
}
