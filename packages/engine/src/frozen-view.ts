/**
 * A deep, frozen copy: what every plugin of one job reads. Freezing only the top left nested
 * objects writable, so a `beforeAnalysis` tap setting `ctx.config.ai.enabled = true` changed every
 * later job without the cache key noticing.
 */
export function frozenCopy<T>(value: T): T {
  return deepFreeze(structuredClone(value));
}

export function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const key of Reflect.ownKeys(value)) deepFreeze((value as Record<PropertyKey, unknown>)[key]);
  }
  return value;
}
