import { itemAt } from '@cadence-detect/errors';

/** Each feature's mean and spread over a set of rows: a feature becomes (value - mean) / scale. */
export interface Standardizer {
  readonly mean: number[];
  /** The population standard deviation; 1 for a feature that does not vary (so it becomes 0). */
  readonly scale: number[];
}

/** The mean and standard deviation of each column of `rows` (all of one length, at least one row). */
export function standardizer(rows: readonly (readonly number[])[]): Standardizer {
  const d = itemAt(rows, 0).length;
  const mean = new Array<number>(d).fill(0);
  const scale = new Array<number>(d).fill(0);
  for (const x of rows) for (let j = 0; j < d; j++) mean[j] = itemAt(mean, j) + itemAt(x, j) / rows.length;
  for (const x of rows)
    for (let j = 0; j < d; j++) scale[j] = itemAt(scale, j) + (itemAt(x, j) - itemAt(mean, j)) ** 2 / rows.length;
  return { mean, scale: scale.map((v) => (v > 1e-12 ? Math.sqrt(v) : 1)) };
}
