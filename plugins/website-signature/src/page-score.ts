import { clampScore, type StrategyResult } from '@cadence-detect/plugin-sdk';

/** Weights of the AI signals in the page score (docs/website-analysis.md). */
export const SIGNAL_WEIGHTS: Readonly<Record<string, number>> = Object.freeze({
  'stock-phrases': 0.9,
  'ai-vocabulary': 0.7,
  'transition-density': 0.6,
  'sentence-uniformity': 0.6,
  'repetitive-openings': 0.5,
  'unhedged-claims': 0.4,
  'structure-density': 0.4,
  'page-structure': 0.2,
});
const HUMAN_VOICE_PULL = 0.5;
const TOO_SHORT_SCORE = 0.05;

/**
 * The page score: half the weighted mean of the AI signals, half the combined strength of the three
 * strongest (1 − Π(1 − w·s)), minus half the human-voice score; placeholder text is no part of the
 * mean (most pages have none) but chat-assistant leftovers floor the score at 0.85, lorem ipsum at 0.6. A page too short to judge scores 0.05. Returns null when no website-signature strategy ran.
 */
export function websiteOverallScore(results: readonly StrategyResult[]): number | null {
  const byName = new Map(results.filter((r) => r.error === null).map((r) => [r.name, r]));
  if (byName.get('text-length')?.detected) return TOO_SHORT_SCORE;
  const signals = Object.entries(SIGNAL_WEIGHTS).filter(([name]) => byName.has(name));
  if (signals.length === 0) return null;
  const weighted = signals.flatMap(([name, weight]) => {
    const result = byName.get(name);
    return result ? [{ weight, score: result.score }] : [];
  });
  const totalWeight = weighted.reduce((sum, s) => sum + s.weight, 0);
  const mean = weighted.reduce((sum, s) => sum + s.weight * s.score, 0) / totalWeight;
  const strongest = weighted
    .map((s) => s.weight * s.score)
    .sort((a, b) => b - a)
    .slice(0, 3);
  const combined = 1 - strongest.reduce((product, v) => product * (1 - v), 1);
  const human = byName.get('human-voice')?.score ?? 0;
  let score = 0.5 * mean + 0.5 * combined - HUMAN_VOICE_PULL * human;
  const placeholder = byName.get('placeholder-text')?.score ?? 0;
  if (placeholder >= 0.9) score = Math.max(score, 0.85);
  else if (placeholder > 0) score = Math.max(score, 0.6);
  return Math.round(clampScore(score) * 1000) / 1000;
}
