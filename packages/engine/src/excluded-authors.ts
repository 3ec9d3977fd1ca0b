import picomatch from './vendor/picomatch.js';
import type { CommitRecord } from '@cadence-detect/plugin-sdk';

/**
 * Configuration `exclude_authors`: globs over an author's name or e-mail, case-insensitive
 * (`*[bot]`, `*@ci.example.com`, `Release Robot`). Their commits count as automation. Null when none.
 */
export function excludedAuthorMatcher(globs: readonly string[]): ((commit: CommitRecord) => boolean) | null {
  if (globs.length === 0) return null;
  // `[bot]` is literal in an account name, not a character class: brackets are escaped.
  const matches = picomatch(
    globs.map((glob) => glob.replace(/[[\]]/g, '\\$&')),
    { nocase: true, dot: true, bash: true },
  );
  const seen = new Map<string, boolean>();
  return (commit) => {
    const key = `${commit.authorName}\0${commit.authorEmail}`;
    let excluded = seen.get(key);
    if (excluded === undefined) {
      excluded = matches(commit.authorName) || matches(commit.authorEmail);
      seen.set(key, excluded);
    }
    return excluded;
  };
}
