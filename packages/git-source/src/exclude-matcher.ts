import { LRUCache } from 'lru-cache';
import picomatch from './vendor/picomatch.js';

/**
 * The answers kept per matcher: a history names the same paths in commit after commit (the
 * 50,000-commit benchmark asked picomatch about a path some 0.9 s of CPU in all), while the paths
 * themselves are few by comparison. Bounded, so a history of millions of paths costs no more memory.
 */
const KEPT_PATHS = 20_000;

/**
 * `exclude_files` globs as a predicate over repository paths. A pattern without a slash matches a
 * file name anywhere (`package-lock.json`, `*.min.js`), as in .gitignore; one with a slash matches
 * from the repository root (`vendor/**`).
 */
export function excludeMatcher(globs: readonly string[]): (path: string) => boolean {
  if (globs.length === 0) return () => false;
  const match = picomatch([...globs], { dot: true, basename: false });
  const byName = picomatch(
    globs.filter((g) => !g.includes('/')),
    { dot: true },
  );
  const hasNamePatterns = globs.some((g) => !g.includes('/'));
  const decide = (path: string): boolean => {
    if (match(path)) return true;
    if (!hasNamePatterns) return false;
    const name = path.slice(path.lastIndexOf('/') + 1);
    return byName(name);
  };
  const answers = new LRUCache<string, boolean>({ max: KEPT_PATHS });
  return (path) => {
    let excluded = answers.get(path);
    if (excluded === undefined) {
      excluded = decide(path);
      answers.set(path, excluded);
    }
    return excluded;
  };
}
