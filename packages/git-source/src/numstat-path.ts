/**
 * The path a numstat line names, after a rename: `src/{old => new}/a.ts` is `src/new/a.ts`,
 * `old.ts => new.ts` is `new.ts`. Paths git quoted (special characters) are unquoted.
 */
export function numstatPath(raw: string): string {
  let value = raw;
  if (value.startsWith('"') && value.endsWith('"')) value = unquote(value.slice(1, -1));
  const braces = /^(.*)\{(.*) => (.*)\}(.*)$/.exec(value);
  if (braces) {
    const [, before = '', , after = '', rest = ''] = braces;
    return `${before}${after}${rest}`.replace(/\/\//g, '/');
  }
  const arrow = value.indexOf(' => ');
  return arrow >= 0 ? value.slice(arrow + 4) : value;
}

function unquote(value: string): string {
  return value.replace(/\\(["\\abfnrtv]|[0-7]{3})/g, (_, escape: string) => {
    const simple: Record<string, string> = { '"': '"', '\\': '\\', a: '\x07', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v' };
    return simple[escape] ?? String.fromCharCode(parseInt(escape, 8));
  });
}
