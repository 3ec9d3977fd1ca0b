import picomatch from './vendor/picomatch.js';

/** What the `.gitattributes` files of a tree say of a path, for the attributes the line counts read. */
export interface PathAttributes {
  /**
   * `linguist-vendored` or `linguist-generated`: true when either is set (left out of line counts,
   * as GitHub's linguist does), false when one is unset (`-linguist-vendored`, `=false`: counted
   * even where the defaults would leave it out), undefined when neither is given.
   */
  readonly linguist: boolean | undefined;
  /** `-diff` (or `binary`): git shows no line diff of it, so it is left out of line counts. */
  readonly noDiff: boolean;
}

interface Rule {
  /** The folder the .gitattributes file is in ('' at the top level). */
  readonly base: string;
  readonly match: (relative: string) => boolean;
  readonly set: ReadonlyMap<string, boolean>;
}

const ATTRIBUTES = ['linguist-vendored', 'linguist-generated', 'diff'] as const;

/** One line's attribute assignments that matter here: true set, false unset; `binary` is `-diff`. */
function assignments(words: readonly string[]): Map<string, boolean> {
  const set = new Map<string, boolean>();
  for (const word of words) {
    if (word === 'binary') set.set('diff', false);
    const unset = word.startsWith('-') || word.startsWith('!');
    const [name, value] = (unset ? word.slice(1) : word).split('=', 2) as [string, string | undefined];
    if (!(ATTRIBUTES as readonly string[]).includes(name)) continue;
    set.set(name, !unset && value !== 'false');
  }
  return set;
}

/**
 * A predicate over a tree's paths from its `.gitattributes` files (`files`: path of each file to
 * its text), read as git reads them: a pattern without a slash matches a name at any depth below
 * its file's folder, one with a slash matches from that folder, later lines and deeper files win.
 * Macros other than `binary` and negative patterns are not read (git refuses the latter too).
 */
export function attributesOf(files: ReadonlyMap<string, string>): (path: string) => PathAttributes {
  const rules: Rule[] = [];
  const ordered = [...files].sort(([a], [b]) => a.split('/').length - b.split('/').length || a.localeCompare(b));
  for (const [file, text] of ordered) {
    const base = file.includes('/') ? file.slice(0, file.lastIndexOf('/')) : '';
    for (const raw of text.split('\n')) {
      const line = raw.trim();
      if (!line || line.startsWith('#') || line.startsWith('[attr]')) continue;
      const [pattern, ...words] = line.split(/\s+/);
      // Negative patterns are refused by git; a trailing slash matches folders, never a file's attributes.
      if (!pattern || pattern.startsWith('!') || pattern.endsWith('/')) continue;
      const set = assignments(words);
      if (set.size === 0) continue;
      const anchored = pattern.replace(/^\//, '');
      const withSlash = pattern.includes('/');
      const matcher = picomatch(withSlash ? anchored : `**/${anchored}`, { dot: true });
      rules.push({ base, match: matcher, set });
    }
  }
  return (path) => {
    const state = new Map<string, boolean>();
    for (const rule of rules) {
      if (rule.base && !path.startsWith(`${rule.base}/`)) continue;
      if (!rule.match(rule.base ? path.slice(rule.base.length + 1) : path)) continue;
      for (const [name, value] of rule.set) state.set(name, value);
    }
    const vendored = state.get('linguist-vendored');
    const generated = state.get('linguist-generated');
    return {
      linguist:
        vendored === true || generated === true ? true : vendored === false || generated === false ? false : undefined,
      noDiff: state.get('diff') === false,
    };
  };
}
