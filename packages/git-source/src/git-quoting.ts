/**
 * A path as git prints it with `core.quotePath=false`: as written, or in double quotes with C-style
 * escapes (`\t`, `\n`, `\"`, `\\`) when it holds such characters, which JSON reads the same way.
 */
export function unquoteGitPath(text: string): string {
  if (!text.startsWith('"') || !text.endsWith('"') || text.length < 2) return text;
  try {
    return JSON.parse(text) as string;
  } catch {
    return text;
  }
}
