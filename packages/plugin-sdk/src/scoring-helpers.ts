import { itemAt } from '@cadence-detect/errors';
import type { CommitRecord } from './commit.js';
import type { Finding } from './strategy.js';
import { clampScore } from './source.js';

/**
 * How far a measured value goes past its threshold, as a score: 0.4 at the threshold (a `medium`
 * finding), 0.7 at twice the threshold (`high`), 1 at four times. Logarithmic because a commit ten
 * times over a threshold is not ten times as telling as one just over it.
 * Returns 0 when the value does not exceed the threshold.
 */
export function exceedanceScore(measured: number, threshold: number): number {
  if (!(threshold > 0) || !(measured > threshold)) return 0;
  return clampScore(0.4 + 0.3 * Math.log2(measured / threshold));
}

/**
 * Whether a commit's size says anything about how it was written. Merge commits replay other
 * commits' changes, and the boundary commit of a shallow clone looks like it adds the whole tree
 * (docs/scoring.md): neither carries a size, velocity or timing finding.
 */
export function isMeasurableCommit(commit: CommitRecord): boolean {
  return !commit.isMerge && !commit.isBoundary;
}

const WEB_COMMITTER = /^noreply@github\.com$|^noreply@gitlab\.com$|^gitlab@/i;
const SQUASH_SUBJECT = /\(#\d+\)\s*$|^Squashed commit|^Merge (branch|pull request|remote-tracking)/i;

/**
 * A squash merge or a commit made by a forge's web UI on someone's behalf: it folds many commits
 * of hours or days of work into one, so its size and speed are weak evidence. Strategies discount
 * such commits rather than ignore them.
 */
export function isSquashOrForgeMerge(commit: CommitRecord): boolean {
  if (SQUASH_SUBJECT.test(commit.subject)) return true;
  return WEB_COMMITTER.test(commit.committerEmail) && commit.committerEmail !== commit.authorEmail;
}

/**
 * The first commit of a repository (no parents, not a shallow boundary) usually imports an existing
 * tree: large by nature, so it is discounted too.
 */
export function isRootImport(commit: CommitRecord): boolean {
  return commit.parents.length === 0 && !commit.isBoundary;
}

/** Discount for commits whose size is weak evidence (see the predicates above); 1 when none applies. */
export function sizeEvidenceFactor(commit: CommitRecord): number {
  if (isRootImport(commit)) return 0.3;
  if (isSquashOrForgeMerge(commit)) return 0.5;
  return 1;
}

/** The findings of a strategy that judges each commit on its own: one judgement per commit, nulls dropped. */
export function judgeEachCommit<M extends string = string>(
  commits: readonly CommitRecord[],
  judge: (commit: CommitRecord) => Finding<M> | null,
): Finding<M>[] {
  const findings: Finding<M>[] = [];
  for (const commit of commits) {
    const finding = judge(commit);
    if (finding) findings.push(finding);
  }
  return findings;
}

/**
 * A logistic regression over standardized features, then a Platt calibration: the shape of the
 * models the built-in commit and page models ship. Fit it as you like; the arrays are in
 * the order of the feature vector the strategy extracts.
 * @since 1.6
 */
export interface LogisticModel {
  /** Each feature's mean and scale in the training data: a feature counts as (x - mean) / scale. */
  readonly mean: readonly number[];
  readonly scale: readonly number[];
  readonly weights: readonly number[];
  readonly bias: number;
  /** p = sigmoid(slope × (w·z + bias) + intercept), fitted on held-out scores. */
  readonly calibration: { readonly slope: number; readonly intercept: number };
}

export interface LogisticOptions {
  /**
   * A standardized feature counts at most this many deviations from the mean, either way: a value
   * far outside what the model saw must not let one feature's straight line decide alone.
   */
  readonly zLimit?: number;
}

export function sigmoid(z: number): number {
  return 1 / (1 + Math.exp(-z));
}

/** The model's calibrated probability for one feature vector (what every commit or page needs; allocates nothing). */
export function logisticProbability(
  model: LogisticModel,
  features: ArrayLike<number>,
  options: LogisticOptions = {},
): number {
  return sigmoid(
    model.calibration.slope * linearScore(model, features, options.zLimit, null) + model.calibration.intercept,
  );
}

/**
 * The probability and each feature's part of the linear score (weight × standardized value), in
 * feature order: what a finding's message explains itself with.
 */
export function logisticScore(
  model: LogisticModel,
  features: ArrayLike<number>,
  options: LogisticOptions = {},
): { probability: number; contributions: Float64Array } {
  const contributions = new Float64Array(model.weights.length);
  const z = linearScore(model, features, options.zLimit, contributions);
  return { probability: sigmoid(model.calibration.slope * z + model.calibration.intercept), contributions };
}

function linearScore(
  model: LogisticModel,
  x: ArrayLike<number>,
  zLimit: number | undefined,
  contributions: Float64Array | null,
): number {
  let z = model.bias;
  for (let i = 0; i < model.weights.length; i++) {
    let standardized = (itemAt(x, i) - itemAt(model.mean, i)) / itemAt(model.scale, i);
    if (zLimit !== undefined) standardized = Math.max(-zLimit, Math.min(zLimit, standardized));
    const contribution = itemAt(model.weights, i) * standardized;
    if (contributions) contributions[i] = contribution;
    z += contribution;
  }
  return z;
}
