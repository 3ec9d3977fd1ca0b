import picomatch from 'picomatch';

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
  return (path) => {
    if (match(path)) return true;
    if (!hasNamePatterns) return false;
    const name = path.slice(path.lastIndexOf('/') + 1);
    return byName(name);
  };
}
