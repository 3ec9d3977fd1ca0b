import { itemAt } from './item-at.js';

/**
 * The known name a mistyped one most likely meant (`min_bulets` -> `min_bullets`), or null when none
 * is close: at most two edits for names of five characters or more, one for shorter ones.
 */
export function closestName(typed: string, known: Iterable<string>): string | null {
  let best: string | null = null;
  let bestDistance = Infinity;
  const limit = typed.length >= 5 ? 2 : 1;
  for (const name of known) {
    const distance = editDistance(typed.toLowerCase(), name.toLowerCase());
    if (distance <= limit && distance < bestDistance) {
      best = name;
      bestDistance = distance;
    }
  }
  return best;
}

/** Levenshtein distance with adjacent transpositions counted as one edit. */
function editDistance(a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min(
        itemAt(itemAt(rows, i - 1), j) + 1,
        itemAt(itemAt(rows, i), j - 1) + 1,
        itemAt(itemAt(rows, i - 1), j - 1) + cost,
      );
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        value = Math.min(value, itemAt(itemAt(rows, i - 2), j - 2) + 1);
      itemAt(rows, i)[j] = value;
    }
  }
  return itemAt(itemAt(rows, a.length), b.length);
}
