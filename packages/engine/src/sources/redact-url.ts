/** A URL fit for messages and logs: credentials removed (https://user:token@host/... is common). */
export function redactUrl(input: string): string {
  // Without an '@' there are no credentials: the URL stays as given (and unparsed, on every job submit).
  if (!input.includes('@')) return input;
  try {
    const url = new URL(input);
    if (!url.username && !url.password) return input;
    url.username = '';
    url.password = '';
    return url.toString();
  } catch {
    // scp-style and local paths carry no password; a user name before '@' is not a secret.
    return input;
  }
}
