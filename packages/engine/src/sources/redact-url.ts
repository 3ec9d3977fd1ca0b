/** A URL fit for messages and logs: credentials removed (https://user:token@host/... is common). */
export function redactUrl(input: string): string {
  try {
    const url = new URL(input);
    if (url.username || url.password) {
      url.username = '';
      url.password = '';
    }
    return url.toString();
  } catch {
    // scp-style and local paths carry no password; a user name before '@' is not a secret.
    return input;
  }
}
