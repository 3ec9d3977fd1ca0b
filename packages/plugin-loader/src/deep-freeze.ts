/**
 * Freezes a value and everything it holds. What a plugin is handed (its options, here; the engine's
 * per-job configuration view) is frozen all the way down: freezing only the top left nested objects
 * writable, so one plugin or one job could change what the next one read.
 */
export function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const key of Reflect.ownKeys(value)) deepFreeze((value as Record<PropertyKey, unknown>)[key]);
  }
  return value;
}
