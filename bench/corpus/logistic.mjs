// A small weighted logistic regression (Newton's method with an L2 penalty), Platt calibration and
// the figures of a scored set. A few dozen lines of our own: no library is needed for this size.

export function standardizer(rows) {
  const d = rows[0].length;
  const mean = new Array(d).fill(0);
  const scale = new Array(d).fill(0);
  for (const x of rows) for (let j = 0; j < d; j++) mean[j] += x[j] / rows.length;
  for (const x of rows) for (let j = 0; j < d; j++) scale[j] += (x[j] - mean[j]) ** 2 / rows.length;
  return { mean, scale: scale.map((v) => (v > 1e-12 ? Math.sqrt(v) : 1)) };
}

export const sigmoid = (z) => 1 / (1 + Math.exp(-z));

/** Fits w, b on standardized rows; `weights` per row; `lambda` penalizes w (not b). */
export function fitLogistic(rows, labels, weights, lambda = 1, iterations = 25) {
  const d = rows[0].length;
  const w = new Array(d + 1).fill(0); // last entry: bias
  for (let iter = 0; iter < iterations; iter++) {
    const grad = new Array(d + 1).fill(0);
    const hess = Array.from({ length: d + 1 }, () => new Array(d + 1).fill(0));
    for (let i = 0; i < rows.length; i++) {
      const x = rows[i];
      let z = w[d];
      for (let j = 0; j < d; j++) z += w[j] * x[j];
      const p = sigmoid(z);
      const g = weights[i] * (p - labels[i]);
      const h = weights[i] * Math.max(p * (1 - p), 1e-9);
      for (let j = 0; j <= d; j++) {
        const xj = j === d ? 1 : x[j];
        grad[j] += g * xj;
        const row = hess[j];
        for (let k = 0; k <= j; k++) row[k] += h * xj * (k === d ? 1 : x[k]);
      }
    }
    for (let j = 0; j <= d; j++) for (let k = 0; k < j; k++) hess[k][j] = hess[j][k];
    for (let j = 0; j < d; j++) {
      grad[j] += lambda * w[j];
      hess[j][j] += lambda;
    }
    const step = solve(hess, grad);
    let size = 0;
    for (let j = 0; j <= d; j++) {
      w[j] -= step[j];
      size = Math.max(size, Math.abs(step[j]));
    }
    if (size < 1e-6) break;
  }
  return { weights: w.slice(0, d), bias: w[d] };
}

function solve(a, b) {
  const n = b.length;
  const m = a.map((row, i) => [...row, b[i]]);
  for (let c = 0; c < n; c++) {
    let pivot = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(m[r][c]) > Math.abs(m[pivot][c])) pivot = r;
    [m[c], m[pivot]] = [m[pivot], m[c]];
    const div = m[c][c] || 1e-12;
    for (let r = 0; r < n; r++) {
      if (r === c) continue;
      const f = m[r][c] / div;
      if (f !== 0) for (let k = c; k <= n; k++) m[r][k] -= f * m[c][k];
    }
  }
  return m.map((row, i) => row[n] / (row[i] || 1e-12));
}

/** Platt scaling: p = sigmoid(slope·z + intercept), weighted so that the positives make up `prior`. */
export function fitPlatt(scores, labels, prior) {
  const positives = labels.filter((l) => l === 1).length;
  const negatives = labels.length - positives;
  const weights = labels.map((l) => (l === 1 ? prior / positives : (1 - prior) / negatives) * labels.length);
  const fit = fitLogistic(scores.map((z) => [z]), labels, weights, 1e-6, 50);
  return { slope: fit.weights[0], intercept: fit.bias, prior };
}

export function auc(scores, labels) {
  const order = scores.map((s, i) => [s, labels[i]]).sort((a, b) => a[0] - b[0]);
  let rankSum = 0;
  let positives = 0;
  for (let i = 0; i < order.length; ) {
    let j = i;
    while (j < order.length && order[j][0] === order[i][0]) j++;
    const rank = (i + j + 1) / 2;
    for (let k = i; k < j; k++) if (order[k][1] === 1) {
      rankSum += rank;
      positives++;
    }
    i = j;
  }
  const negatives = order.length - positives;
  return positives && negatives ? (rankSum - (positives * (positives + 1)) / 2) / (positives * negatives) : NaN;
}

/** Precision and recall of `flagged`, on the set's own balance and re-weighted to `prevalence`. */
export function figures(flagged, labels, prevalence) {
  let tp = 0, fp = 0, pos = 0, neg = 0;
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
  const atPrevalence = recall * prevalence + fpr * (1 - prevalence) > 0 ? (recall * prevalence) / (recall * prevalence + fpr * (1 - prevalence)) : 1;
  return { precision, recall, false_positive_rate: fpr, precision_at_prevalence: atPrevalence, positives: pos, negatives: neg };
}

/** The lowest cut-off whose precision at `prevalence` reaches `target` (recall as high as it allows). */
export function chooseCutoff(probabilities, labels, prevalence, target) {
  const candidates = [...new Set(probabilities.map((p) => Math.round(p * 100) / 100))].sort((a, b) => a - b);
  for (const t of candidates) {
    const f = figures(probabilities.map((p) => p >= t), labels, prevalence);
    if (f.precision_at_prevalence >= target && f.recall > 0) return t;
  }
  return 0.99;
}
