export const REDACTED = '[redacted]';

/** A fragment shorter than this is too likely an ordinary word to be taken for a cut secret. */
const MIN_FRAGMENT = 8;

/**
 * `text` with every known secret replaced by `[redacted]`, whole wherever it appears, and a trailing
 * fragment of 8 or more characters that begins a secret too (text cut in the middle of one: a
 * response body echoing a header, cut at 200 characters). Cut text only after redacting it; this
 * catches what someone else cut. Secrets under 6 characters are left alone (they would redact
 * ordinary words; configuration refuses them anyway).
 */
export function redactSecrets(text: string, secrets: readonly string[]): string {
  let result = text;
  const usable = secrets.filter((secret) => secret.length >= 6);
  for (const secret of usable) result = result.split(secret).join(REDACTED);
  for (const secret of usable) {
    const longest = Math.min(secret.length - 1, result.length);
    for (let length = longest; length >= MIN_FRAGMENT; length--) {
      if (result.endsWith(secret.slice(0, length))) {
        result = result.slice(0, result.length - length) + REDACTED;
        break;
      }
    }
  }
  return result;
}
