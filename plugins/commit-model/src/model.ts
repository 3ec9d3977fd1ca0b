import { readFileSync } from 'node:fs';
import { logisticProbability, logisticScore, type LogisticModel } from '@cadence-detect/plugin-sdk';
import { FEATURE_NAMES, type FeatureVector } from './features.js';

/** The shipped model: a logistic regression over standardized features, then a calibration. */
export interface CommitModel extends LogisticModel {
  readonly version: number;
  readonly kind: 'logistic-regression';
  readonly features: readonly string[];
  /** p = sigmoid(slope × (w·z + bias) + intercept): fitted on leave-one-repository-out scores. */
  readonly calibration: { readonly slope: number; readonly intercept: number; readonly prior: number };
  /** Probability at or above which a commit is flagged; frozen before the last evaluation. */
  readonly flagAt: number;
  readonly validation?: unknown;
}

export const MODEL_FILE = new URL('../model/commit-model.json', import.meta.url);

let shipped: CommitModel | null = null;

/** The model the plugin ships; its features must be the ones this version extracts, in order. */
export function shippedModel(): CommitModel {
  shipped ??= checkModel(JSON.parse(readFileSync(MODEL_FILE, 'utf8')) as CommitModel);
  return shipped;
}

export function checkModel(model: CommitModel): CommitModel {
  const n = FEATURE_NAMES.length;
  const same = model.features.length === n && model.features.every((f, i) => f === FEATURE_NAMES[i]);
  if (!same || model.mean.length !== n || model.scale.length !== n || model.weights.length !== n) {
    throw new Error(`commit model: its features do not match this plugin's (${model.features.length} vs ${n})`);
  }
  return model;
}

export interface Scored {
  readonly probability: number;
  /** Each feature's part of the linear score (weight × standardized value), in FEATURE_NAMES order. */
  readonly contributions: Float64Array;
}

/** The calibrated probability alone: what every commit needs (score() also explains, for flagged ones). */
export function probabilityOf(model: CommitModel, x: FeatureVector): number {
  return logisticProbability(model, knownOrMean(model, x));
}

export function score(model: CommitModel, x: FeatureVector): Scored {
  return logisticScore(model, knownOrMean(model, x));
}

/** An unknown feature (NaN: `code_tokens` without lines) at the model's mean: it moves nothing. */
function knownOrMean(model: CommitModel, x: FeatureVector): FeatureVector {
  if (!x.some(Number.isNaN)) return x;
  return x.map((v, j) => (Number.isNaN(v) ? (model.mean[j] ?? 0) : v));
}
