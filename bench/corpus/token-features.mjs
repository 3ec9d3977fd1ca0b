// The commit model's stacked features `message_tokens` and `code_tokens`: the logits of two
// hashed-token models (plugins/commit-model/src/message-tokens.ts and code-tokens.ts), fitted here.
// A row's value never comes from a fit that saw its repository: in a validation fold, the held-out
// rows are scored by token models fitted on the fold's training repositories and the training rows
// by INNER_FOLDS inner folds of those repositories; for the shipped model, every row by inner folds
// of all repositories.
import { fitHashedLogistic, hashedScore } from '@cadence-detect/model-fitting';
import { commitMessageTokens, encodeTokenModel, TOKEN_BITS } from '@cadence-detect/plugin-commit-model';
import { INNER_FOLDS } from './train.mjs';

/** The stacked features, in the order they end FEATURE_NAMES. */
export const STACKED = ['message_tokens', 'code_tokens'];

/** A code vector as build.mjs keeps it: the slots part by part (`i`) and each part's size (`n`). */
export function unpackCode(packed) {
  if (!packed) return { index: new Int32Array(0), value: new Float32Array(0) };
  const value = new Float32Array(packed.i.length);
  let at = 0;
  for (const size of packed.n) {
    value.fill(1 / Math.sqrt(size), at, at + size);
    at += size;
  }
  return { index: Int32Array.from(packed.i), value };
}

const VECTOR_OF = {
  message_tokens: (row) => {
    const [subject, body] = row.message ?? ['', ''];
    return commitMessageTokens({ subject, body });
  },
  code_tokens: (row) => unpackCode(row.code),
};

const cache = new Map(STACKED.map((name) => [name, new WeakMap()]));
function vectorOf(name, row) {
  const kept = cache.get(name);
  let vector = kept.get(row);
  if (!vector) {
    vector = VECTOR_OF[name](row);
    kept.set(row, vector);
  }
  return vector;
}

function fitTokens(name, rows) {
  const fit = fitHashedLogistic(
    rows.map((r) => ({ vector: vectorOf(name, r), label: r.label === 'assistant' ? 1 : 0 })),
    { bits: TOKEN_BITS },
  );
  return { fit, score: (row) => hashedScore(fit, vectorOf(name, row)) };
}

/**
 * Inner-fold logits of `rows` for feature `name`: each row scored by a fit on the other groups of
 * repositories; `extra` rows (never trained on: era-check commits) by the fit that left theirs out.
 */
function innerFoldLogits(name, rows, extra = []) {
  const repos = [...new Set(rows.map((r) => r.repo))].sort();
  const foldOf = new Map(repos.map((repo, i) => [repo, i % INNER_FOLDS]));
  const logits = new Map();
  for (let fold = 0; fold < INNER_FOLDS; fold++) {
    const { score } = fitTokens(
      name,
      rows.filter((r) => foldOf.get(r.repo) !== fold),
    );
    for (const r of [...rows, ...extra]) if (foldOf.get(r.repo) === fold) logits.set(r, score(r));
  }
  return logits;
}

/**
 * folds.mjs's `augment` for the stacked features `names` (in FEATURE_NAMES order). `unknownInHeldOut`
 * names features the held-out rows go without (NaN, read at the mean): how the model does where the
 * plugin gets no reading (code_tokens without lines, a pushed range).
 */
export function stackedTokens(names, { unknownInHeldOut = [] } = {}) {
  // `trainEra`: the training repositories' era-check commits, given their inner-fold values as the
  // training rows are (the cut-off reads them, train.mjs `calibrate`).
  return (train, heldOut, trainEra = []) => {
    const columns = names.map((name) => {
      const logits = innerFoldLogits(name, train, trainEra);
      if (unknownInHeldOut.includes(name)) {
        for (const r of heldOut) logits.set(r, Number.NaN);
        return logits;
      }
      const { score } = fitTokens(name, train);
      for (const r of heldOut) logits.set(r, score(r));
      return logits;
    });
    return new Map([...train, ...heldOut, ...trainEra].map((r) => [r, columns.map((c) => c.get(r))]));
  };
}

/**
 * The shipped set: rows with their inner-fold features (to fit the commit model on), the era-check
 * commits with theirs (for the cut-off) and each token model fitted on all rows.
 */
export function finalTokens(rows, era = []) {
  const columns = STACKED.map((name) => innerFoldLogits(name, rows, era));
  const extended = (r) => ({ ...r, features: [...r.features, ...columns.map((c) => c.get(r))] });
  const withFeatures = rows.map(extended);
  const models = Object.fromEntries(
    STACKED.map((name) => {
      const { fit } = fitTokens(name, rows);
      return [name, encodeTokenModel(fit.weights, fit.bias)];
    }),
  );
  return { rows: withFeatures, era: era.map(extended), models };
}
