/** An input that is set: CI systems pass unset inputs as empty strings. */
export function given(...values: (string | boolean | undefined)[]): string | undefined {
  for (const value of values) if (typeof value === 'string' && value.trim() !== '') return value.trim();
  return undefined;
}

/** `{ [key]: value }` when the value was given, else nothing: for a CI request's optional fields. */
export function withValue<K extends string>(key: K, value: string | undefined): Partial<Record<K, string>> {
  return value === undefined ? {} : ({ [key]: value } as Record<K, string>);
}
