import { itemAt } from '@cadence-detect/errors';
import { fitLogistic } from './logistic.js';

/** p = sigmoid(slope·z + intercept): a raw score as a probability at the base rate `prior`. */
export interface PlattCalibration {
  readonly slope: number;
  readonly intercept: number;
  readonly prior: number;
}

/**
 * Platt scaling: a one-feature logistic regression of the labels on the raw scores (out-of-fold
 * scores, so that the calibration is honest), weighted so that the positives make up `prior`.
 */
export function fitPlatt(scores: readonly number[], labels: readonly number[], prior: number): PlattCalibration {
  const positives = labels.filter((l) => l === 1).length;
  const negatives = labels.length - positives;
  const weights = labels.map((l) => (l === 1 ? prior / positives : (1 - prior) / negatives) * labels.length);
  const fit = fitLogistic(
    scores.map((z) => [z]),
    labels,
    weights,
    1e-6,
    50,
  );
  return { slope: itemAt(fit.weights, 0), intercept: fit.bias, prior };
}
