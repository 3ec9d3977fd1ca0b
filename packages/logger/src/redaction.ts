import { redactCredentials, redactSecrets } from '@cadence-detect/errors';
/** Field names whose values are secrets wherever they appear (nested too). */
const SECRET_NAME =
  /(^|[_-])(key|api[_-]?key|apikey|token|secret|password|passwd|authorization|auth|cookie|signature|credentials?)$/i;
export const REDACTED = '[redacted]';

/** A copy of `value` with secret-named fields and known secret strings replaced. */
export function redact(value: unknown, secrets: readonly string[], depth = 0): unknown {
  if (typeof value === 'string') return redactString(value, secrets);
  if (value === null || typeof value !== 'object' || depth > 6) return value;
  if (value instanceof Error) return redactString(value.message, secrets);
  if (Array.isArray(value)) return value.map((item) => redact(item, secrets, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    out[key] =
      SECRET_NAME.test(key) && item !== null && item !== undefined && item !== ''
        ? REDACTED
        : redact(item, secrets, depth + 1);
  }
  return out;
}

export function redactString(text: string, secrets: readonly string[]): string {
  // Whole secrets, and a trailing fragment that begins one (a text cut inside a secret before it got here).
  const result = redactSecrets(text, secrets);
  // Credentials in URLs (https://user:token@host) never reach a log line.
  return redactCredentials(result);
}
