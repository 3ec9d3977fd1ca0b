import { itemAt } from '@cadence-detect/errors';

/** A sparse input: hashed slots and their values (a commit's tokens, each part scaled to unit length). */
export interface SparseVector {
  readonly index: Int32Array;
  readonly value: Float32Array;
}

export interface HashedExample {
  readonly vector: SparseVector;
  readonly label: 0 | 1;
}

export interface HashedLogisticOptions {
  /** log2 of the number of slots the vectors' indices fall in. */
  readonly bits: number;
  readonly epochs?: number;
  /** AdaGrad's base step. */
  readonly rate?: number;
  /** L2 penalty, applied to a slot when an example touches it. */
  readonly l2?: number;
  /** Seed of the deterministic order the examples are visited in. */
  readonly seed?: number;
}

export interface HashedLogisticFit {
  /** One weight per slot (2^bits); slots no example touched stay 0. */
  readonly weights: Float32Array;
  readonly bias: number;
}

/** The linear score of a sparse vector. */
export function hashedScore(fit: HashedLogisticFit, x: SparseVector): number {
  let z = fit.bias;
  for (let k = 0; k < x.index.length; k++) z += itemAt(fit.weights, itemAt(x.index, k)) * itemAt(x.value, k);
  return z;
}

/**
 * A logistic regression over hashed sparse features by AdaGrad, the classes weighted to equal
 * shares: millions of slots rule out the Newton fit of `fitLogistic`. Deterministic: the examples
 * are visited in a seeded shuffle, the same for the same input.
 */
export function fitHashedLogistic(
  examples: readonly HashedExample[],
  options: HashedLogisticOptions,
): HashedLogisticFit {
  const { bits, epochs = 4, rate = 0.2, l2 = 1e-5, seed = 12345 } = options;
  const weights = new Float32Array(1 << bits);
  const squares = new Float32Array(1 << bits).fill(1e-8);
  let bias = 0;
  const positives = examples.filter((e) => e.label === 1).length;
  const negatives = examples.length - positives;
  if (positives === 0 || negatives === 0) return { weights, bias };
  const classWeight = [examples.length / (2 * negatives), examples.length / (2 * positives)] as const;
  const order = examples.map((_, i) => i);
  let state = seed >>> 0;
  for (let epoch = 0; epoch < epochs; epoch++) {
    for (let i = order.length - 1; i > 0; i--) {
      state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
      const j = state % (i + 1);
      [order[i], order[j]] = [itemAt(order, j), itemAt(order, i)];
    }
    for (const i of order) {
      const { vector: x, label } = itemAt(examples, i);
      const z = hashedScore({ weights, bias }, x);
      const gradient = (1 / (1 + Math.exp(-z)) - label) * classWeight[label];
      bias -= 0.01 * gradient;
      for (let k = 0; k < x.index.length; k++) {
        const slot = itemAt(x.index, k);
        const g = gradient * itemAt(x.value, k) + l2 * itemAt(weights, slot);
        const square = itemAt(squares, slot) + g * g;
        squares[slot] = square;
        weights[slot] = itemAt(weights, slot) - (rate / Math.sqrt(square)) * g;
      }
    }
  }
  return { weights, bias };
}
