/**
 * Model fitting for the models the plugins ship (plugins/commit-model/model/commit-model.json,
 * plugins/website-signature/model/page-model.json), fitted by bench/corpus.mjs and bench/pages.mjs.
 * A private workspace package: development code, never published, so nothing of it ships.
 */
export { standardizer, type Standardizer } from './standardize.js';
export { balancedWeights, fitLogistic, sigmoid, type LogisticFit } from './logistic.js';
export { solveLinear } from './linear-solve.js';
export { fitPlatt, type PlattCalibration } from './calibration.js';
export { auc, chooseCutoff, figures, type CutoffBounds, type Figures } from './evaluation.js';
export {
  fitHashedLogistic,
  hashedScore,
  type HashedExample,
  type HashedLogisticFit,
  type HashedLogisticOptions,
  type SparseVector,
} from './hashed-logistic.js';
