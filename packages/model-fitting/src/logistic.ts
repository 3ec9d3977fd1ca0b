import { itemAt } from '@cadence-detect/errors';
import { solveLinear } from './linear-solve.js';

export const sigmoid = (z: number): number => 1 / (1 + Math.exp(-z));

/** A fitted linear score: `bias + Σ weights[j]·x[j]`, a probability through sigmoid. */
export interface LogisticFit {
  readonly weights: number[];
  readonly bias: number;
}

/**
 * A weighted logistic regression by Newton's method with an L2 penalty: minimises
 * Σ weights[i]·logloss(labels[i], sigmoid(w·x[i] + b)) + lambda/2·|w|² (the bias is not penalised).
 * The penalty keeps the weights finite when the classes separate. Stops when no coefficient moves by
 * 1e-6 or after `iterations` steps. `rows` should be standardized (standardizer) so that one
 * lambda means the same for every feature; `labels` are 0 or 1.
 */
export function fitLogistic(
  rows: readonly (readonly number[])[],
  labels: readonly number[],
  weights: readonly number[],
  lambda = 1,
  iterations = 25,
): LogisticFit {
  const d = itemAt(rows, 0).length;
  const w = new Array<number>(d + 1).fill(0); // the last entry: the bias
  for (let iter = 0; iter < iterations; iter++) {
    const grad = new Array<number>(d + 1).fill(0);
    const hess = Array.from({ length: d + 1 }, () => new Array<number>(d + 1).fill(0));
    for (let i = 0; i < rows.length; i++) {
      const x = itemAt(rows, i);
      let z = itemAt(w, d);
      for (let j = 0; j < d; j++) z += itemAt(w, j) * itemAt(x, j);
      const p = sigmoid(z);
      const g = itemAt(weights, i) * (p - itemAt(labels, i));
      // Floored: a point classified with certainty still keeps the Hessian invertible.
      const h = itemAt(weights, i) * Math.max(p * (1 - p), 1e-9);
      for (let j = 0; j <= d; j++) {
        const xj = j === d ? 1 : itemAt(x, j);
        grad[j] = itemAt(grad, j) + g * xj;
        const row = itemAt(hess, j);
        for (let k = 0; k <= j; k++) row[k] = itemAt(row, k) + h * xj * (k === d ? 1 : itemAt(x, k));
      }
    }
    for (let j = 0; j <= d; j++) for (let k = 0; k < j; k++) itemAt(hess, k)[j] = itemAt(itemAt(hess, j), k);
    for (let j = 0; j < d; j++) {
      grad[j] = itemAt(grad, j) + lambda * itemAt(w, j);
      itemAt(hess, j)[j] = itemAt(itemAt(hess, j), j) + lambda;
    }
    const step = solveLinear(hess, grad);
    let size = 0;
    for (let j = 0; j <= d; j++) {
      w[j] = itemAt(w, j) - itemAt(step, j);
      size = Math.max(size, Math.abs(itemAt(step, j)));
    }
    if (size < 1e-6) break;
  }
  return { weights: w.slice(0, d), bias: itemAt(w, d) };
}

/**
 * Per-row weights that give each class the same total weight (n / (2·count of its class)): a
 * corpus with fewer assistant commits than human ones still fits both.
 */
export function balancedWeights(labels: readonly number[]): number[] {
  const pos = labels.filter((l) => l === 1).length;
  const neg = labels.length - pos;
  return labels.map((l) => (l === 1 ? labels.length / (2 * pos) : labels.length / (2 * neg)));
}
