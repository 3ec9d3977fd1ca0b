/** Probabilities moved in log-odds, as the page score and the commit probabilities are (docs/scoring.md). */
export function logit(p: number): number {
  const q = Math.min(Math.max(p, 1e-4), 1 - 1e-4);
  return Math.log(q / (1 - q));
}

export function sigmoid(z: number): number {
  return 1 / (1 + Math.exp(-z));
}
