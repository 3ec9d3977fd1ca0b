import { round, type StrategyReport } from './strategy-outcomes.js';

/**
 * The engine's default website score: the weight-averaged score of the website strategies that ran
 * (failed ones left out). A website plugin with a calibrated model of its own signals refines it
 * in the `refineResult` hook (website-signature does; docs/website-analysis.md).
 */
export function overallWebsiteScore(reports: readonly StrategyReport[]): number {
  let weighted = 0;
  let weights = 0;
  for (const report of reports) {
    if (report.result.error !== null) continue;
    weighted += report.result.score * report.strategy.info.weight;
    weights += report.strategy.info.weight;
  }
  return weights > 0 ? round(weighted / weights) : 0;
}
