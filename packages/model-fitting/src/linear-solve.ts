import { itemAt } from '@cadence-detect/errors';

/**
 * Solves a·x = b by Gauss-Jordan elimination with partial pivoting. Newton's step needs it for a
 * matrix of (features + 1)², a dozen or so: no library is needed at this size. A zero pivot (a
 * singular matrix, which the penalty prevents in a fit) is taken as 1e-12 rather than failing.
 * Neither argument is changed.
 */
export function solveLinear(a: readonly (readonly number[])[], b: readonly number[]): number[] {
  const n = b.length;
  const m = a.map((row, i) => [...row, itemAt(b, i)]);
  for (let c = 0; c < n; c++) {
    let pivot = c;
    for (let r = c + 1; r < n; r++)
      if (Math.abs(itemAt(itemAt(m, r), c)) > Math.abs(itemAt(itemAt(m, pivot), c))) pivot = r;
    [m[c], m[pivot]] = [itemAt(m, pivot), itemAt(m, c)];
    const top = itemAt(m, c);
    const div = top[c] || 1e-12;
    for (let r = 0; r < n; r++) {
      if (r === c) continue;
      const row = itemAt(m, r);
      const f = itemAt(row, c) / div;
      if (f !== 0) for (let k = c; k <= n; k++) row[k] = itemAt(row, k) - f * itemAt(top, k);
    }
  }
  return m.map((row, i) => itemAt(row, n) / (row[i] || 1e-12));
}
