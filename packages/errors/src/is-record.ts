/**
 * Whether a value read from outside (a parsed file, a request body, a plugin's answer) is a plain
 * object whose keys can be read: an object, not null, not an array. Its values stay `unknown`
 * until each is checked in turn.
 */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * A named field of whatever was thrown or parsed (an error a library threw, a decoded document),
 * or undefined when the value is not an object or has no such field.
 */
export function fieldOf(value: unknown, name: string): unknown {
  return typeof value === 'object' && value !== null ? Reflect.get(value, name) : undefined;
}
