import { itemAt } from '@cadence-detect/errors';

/** git's default abbreviation length; an abbreviation grows past it only where it would be ambiguous. */
export const MIN_ABBREVIATION = 7;

/**
 * The shortest prefix of each hash, at least MIN_ABBREVIATION long, that no other hash of the
 * history shares (as git abbreviates). Sorting puts the hashes sharing the longest prefix with a
 * given one next to it, so comparing neighbours is enough.
 */
export function uniqueAbbreviations(hashes: readonly string[]): Map<string, string> {
  const sorted = [...new Set(hashes)].sort();
  const out = new Map<string, string>();
  for (let i = 0; i < sorted.length; i++) {
    const hash = itemAt(sorted, i);
    const shared = Math.max(commonPrefix(hash, sorted[i - 1]), commonPrefix(hash, sorted[i + 1]));
    out.set(hash, hash.slice(0, Math.max(MIN_ABBREVIATION, shared + 1)));
  }
  return out;
}

function commonPrefix(a: string, b: string | undefined): number {
  if (b === undefined) return 0;
  let n = 0;
  while (n < a.length && a.charCodeAt(n) === b.charCodeAt(n)) n++;
  return n;
}
