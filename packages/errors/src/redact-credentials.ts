/** `scheme://user:password@` or `scheme://token@`: the user part of a URL anywhere in a text. */
const URL_USER_PART = /([a-z][a-z0-9+.-]*:\/\/)[^/@\s]+@/gi;

/**
 * Removes the user part of every URL in `text` (https://user:token@host → https://host): messages,
 * job views and log lines never carry credentials a clone or page URL brought. A text without
 * `://…@` comes back as given, unparsed (this runs on every submitted job).
 */
export function redactCredentials(text: string): string {
  return text.includes('@') ? text.replace(URL_USER_PART, '$1') : text;
}
