import Type, { type Static, type TSchema } from 'typebox';
import Value from 'typebox/value';
import { HttpError } from '@cadence-detect/errors';

export const RepositoryBody = Type.Object({
  url: Type.String({ minLength: 1, maxLength: 2048 }),
  branch: Type.Optional(Type.Union([Type.String({ minLength: 1, maxLength: 255 }), Type.Null()])),
});
export const WebsiteBody = Type.Object({ url: Type.String({ minLength: 1, maxLength: 2048 }) });

/** Checks a body against a schema: 400 invalid_request with `details: {field, reason}` (decisions §7). */
export function validated<S extends TSchema>(schema: S, value: unknown): Static<S> {
  if (!value || typeof value !== 'object' || Array.isArray(value)) {
    throw HttpError.invalidRequest('body', 'must be a JSON object');
  }
  if (Value.Check(schema, value)) return value as Static<S>;
  const first = Value.Errors(schema, value)[0];
  const field = first?.instancePath.replace(/^\//, '').replace(/\//g, '.') || requiredField(first?.params) || 'body';
  throw HttpError.invalidRequest(field, first?.message ?? 'invalid');
}

function requiredField(params: unknown): string | undefined {
  const missing = (params as { requiredProperties?: string[] } | undefined)?.requiredProperties;
  return missing?.[0];
}
