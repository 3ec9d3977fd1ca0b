import { Type, Value, type Static, type TSchema } from '@cadence-detect/plugin-sdk/typebox';
import { HttpError } from '@cadence-detect/errors';

export const RepositoryBody = Type.Object({
  url: Type.String({
    minLength: 1,
    maxLength: 2048,
    examples: ['https://github.com/acme/widget'],
    description: 'a repository URL',
  }),
  branch: Type.Optional(Type.Union([Type.String({ minLength: 1, maxLength: 255 }), Type.Null()])),
});
export const WebsiteBody = Type.Object({
  url: Type.String({
    minLength: 1,
    maxLength: 2048,
    examples: ['https://example.org/post'],
    description: 'a page URL',
  }),
});

/** Checks a body against a schema: 400 invalid_request with `details: {field, reason}` (docs/http-api.md, Errors). */
export function validated<S extends TSchema>(schema: S, value: unknown): Static<S> {
  if (!value || typeof value !== 'object' || Array.isArray(value)) {
    throw HttpError.invalidRequest('body', 'must be a JSON object');
  }
  if (Value.Check(schema, value)) return value;
  const first = Value.Errors(schema, value)[0];
  const missing = requiredField(first?.params);
  if (!first?.instancePath && missing) throw missingField(schema, missing, value as Record<string, unknown>);
  const field = first?.instancePath.replace(/^\//, '').replace(/\//g, '.') || missing || 'body';
  throw HttpError.invalidRequest(field, first?.message ?? 'invalid');
}

/**
 * "missing url (a repository URL such as https://github.com/tj/co)": what the field is, with an
 * example built from what the caller did send (`{"repo": "tj/co"}`) when that looks like owner/name.
 */
function missingField(schema: TSchema, field: string, body: Record<string, unknown>): HttpError {
  const property = (schema as { properties?: Record<string, { description?: string; examples?: string[] }> })
    .properties?.[field];
  const ownerName = ['repo', 'repository', 'full_name', 'name']
    .map((key) => body[key])
    .find((v): v is string => typeof v === 'string' && /^[\w.-]{1,100}\/[\w.-]{1,100}$/.test(v));
  const example =
    field === 'url' && ownerName && property?.description === 'a repository URL'
      ? `https://github.com/${ownerName}`
      : property?.examples?.[0];
  const what = property?.description ? ` (${property.description}${example ? ` such as ${example}` : ''})` : '';
  return new HttpError(400, 'invalid_request', `missing ${field}${what}`, { details: { field, reason: 'missing' } });
}

function requiredField(params: unknown): string | undefined {
  const missing = (params as { requiredProperties?: string[] } | undefined)?.requiredProperties;
  return missing?.[0];
}
