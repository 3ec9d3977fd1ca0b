import { logit, sigmoid } from './log-odds.js';
import { round, type StrategyReport } from './strategy-outcomes.js';

/**
 * The page score; the engine owns it (docs/website-analysis.md), no plugin overwrites it:
 *
 * - with a calibrated website strategy (`meta.calibrated`, the page model): its score, a
 *   probability, is the base; every other strategy that ran and is not in its `covers` moves the
 *   score in log-odds by LOG_ODDS_PER_WEIGHTED_POINT x weight x score (a weight-1 strategy scoring 1
 *   takes 0.5 to 0.88, 0.1 to 0.45);
 * - without one: the weight-averaged score of the strategies that ran (failed ones left out);
 * - then every `floor` a strategy set applies (chat-assistant leftovers, strong stock phrases).
 */
export const LOG_ODDS_PER_WEIGHTED_POINT = 2;

export function overallWebsiteScore(reports: readonly StrategyReport[]): number {
  const ran = reports.filter((r) => r.result.error === null);
  const model = ran.find((r) => r.strategy.info.calibrated === true);
  let score: number;
  if (model) {
    const covered = new Set([model.result.name, ...(model.covers ?? [])]);
    const shift = ran
      .filter((r) => !covered.has(r.result.name))
      .reduce((sum, r) => sum + LOG_ODDS_PER_WEIGHTED_POINT * r.strategy.info.weight * r.result.score, 0);
    score = sigmoid(logit(model.result.score) + shift);
  } else {
    let weighted = 0;
    let weights = 0;
    for (const report of ran) {
      weighted += report.result.score * report.strategy.info.weight;
      weights += report.strategy.info.weight;
    }
    score = weights > 0 ? weighted / weights : 0;
  }
  const floor = ran.reduce((max, r) => Math.max(max, r.floor ?? 0), 0);
  return round(Math.max(score, floor));
}
