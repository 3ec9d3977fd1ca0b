import { itemAt } from '@cadence-detect/errors';

/**
 * The area under the ROC curve by the rank-sum (Mann-Whitney) statistic, ties at their mean rank:
 * the chance that a random positive scores above a random negative. NaN without both classes.
 */
export function auc(scores: readonly number[], labels: readonly number[]): number {
  const order = scores.map((s, i): [number, number] => [s, itemAt(labels, i)]).sort((a, b) => a[0] - b[0]);
  let rankSum = 0;
  let positives = 0;
  for (let i = 0; i < order.length;) {
    let j = i;
    while (j < order.length && itemAt(order, j)[0] === itemAt(order, i)[0]) j++;
    const rank = (i + j + 1) / 2;
    for (let k = i; k < j; k++) {
      if (itemAt(order, k)[1] === 1) {
        rankSum += rank;
        positives++;
      }
    }
    i = j;
  }
  const negatives = order.length - positives;
  return positives && negatives ? (rankSum - (positives * (positives + 1)) / 2) / (positives * negatives) : NaN;
}

/** How a set of flags fares against the labels. */
export interface Figures {
  readonly precision: number;
  readonly recall: number;
  readonly false_positive_rate: number;
  /** Precision if positives made up `prevalence` of the set (recall and false-positive rate re-weighted). */
  readonly precision_at_prevalence: number;
  readonly positives: number;
  readonly negatives: number;
}

/** Precision and recall of `flagged`, on the set's own balance and re-weighted to `prevalence`. */
export function figures(flagged: readonly boolean[], labels: readonly number[], prevalence: number): Figures {
  let tp = 0;
  let fp = 0;
  let pos = 0;
  let neg = 0;
  flagged.forEach((f, i) => {
    if (labels[i] === 1) {
      pos++;
      if (f) tp++;
    } else {
      neg++;
      if (f) fp++;
    }
  });
  const recall = pos ? tp / pos : 0;
  const fpr = neg ? fp / neg : 0;
  const precision = tp + fp ? tp / (tp + fp) : 1;
  const atPrevalence =
    recall * prevalence + fpr * (1 - prevalence) > 0
      ? (recall * prevalence) / (recall * prevalence + fpr * (1 - prevalence))
      : 1;
  return {
    precision,
    recall,
    false_positive_rate: fpr,
    precision_at_prevalence: atPrevalence,
    positives: pos,
    negatives: neg,
  };
}

/** What a cut-off must reach besides the precision target. */
export interface CutoffBounds {
  /**
   * Probabilities of negatives of another kind (people's work of a later period): the precision
   * target must hold with their false-positive rate too. Precision at a prevalence rises with
   * recall, so a set that gains easy positives lets the rule flag more negatives of every kind; a
   * kind the labelled negatives do not cover shows it first.
   */
  readonly otherNegatives?: readonly number[];
}

/**
 * The lowest cut-off (of the probabilities rounded to hundredths) whose precision at `prevalence`
 * reaches `target` with some recall, against the labelled negatives and against `bounds`'
 * other negatives: recall as high as both allow. 0.99 if none does.
 */
export function chooseCutoff(
  probabilities: readonly number[],
  labels: readonly number[],
  prevalence: number,
  target: number,
  bounds: CutoffBounds = {},
): number {
  const others = bounds.otherNegatives ?? [];
  const candidates = [...new Set(probabilities.map((p) => Math.round(p * 100) / 100))].sort((a, b) => a - b);
  for (const t of candidates) {
    const f = figures(
      probabilities.map((p) => p >= t),
      labels,
      prevalence,
    );
    if (f.precision_at_prevalence < target || f.recall === 0) continue;
    const otherRate = others.length ? others.filter((p) => p >= t).length / others.length : 0;
    const againstOthers = (f.recall * prevalence) / (f.recall * prevalence + otherRate * (1 - prevalence));
    if (againstOthers >= target) return t;
  }
  return 0.99;
}
