import type { AnalysisResult } from '@cadence-detect/plugin-sdk';

/** What one retained job keeps in full; counts stay exact (decisions: memory bounded, exact counts). */
export const MAX_RETAINED_ITEMS = 1000;

/**
 * Caps the lists of a result before it is stored: `suspicions` (strongest first) and `detections`
 * keep at most MAX_RETAINED_ITEMS entries, `truncated` says how many there were. Totals such as
 * `suspicious_commits` and `strategy_results[].detections` are untouched.
 */
export function retainedResult(result: AnalysisResult): AnalysisResult {
  const detectionsTotal = result.detections.length;
  const suspicionsTotal = result.source_type === 'git' ? result.suspicions.length : 0;
  if (detectionsTotal <= MAX_RETAINED_ITEMS && suspicionsTotal <= MAX_RETAINED_ITEMS) return result;
  const detections = [...result.detections].sort((a, b) => b.confidence - a.confidence).slice(0, MAX_RETAINED_ITEMS);
  const truncated = { detections: detectionsTotal, suspicions: suspicionsTotal, kept: MAX_RETAINED_ITEMS };
  if (result.source_type === 'git') {
    const suspicions = [...result.suspicions].sort((a, b) => b.confidence - a.confidence).slice(0, MAX_RETAINED_ITEMS);
    return { ...result, detections, suspicions, truncated } as AnalysisResult;
  }
  return { ...result, detections, truncated } as AnalysisResult;
}
