import { clampScore, type AnalysisContext, type AnalysisResult } from '@cadence-detect/plugin-sdk';
import { assessRepository, assessWebsite } from '../assessment.js';
import type { EngineParts } from './engine-parts.js';

/** The one place plugins change other strategies' findings; score, suspicion_score and assessment stay consistent afterwards. */
export async function refineResult(
  parts: EngineParts,
  result: AnalysisResult,
  context: AnalysisContext,
): Promise<AnalysisResult> {
  const refined = await parts.hooks.refineResult.promise(result, context);
  const score = clampScore(refined.overall_score);
  if (refined.source_type === 'git') {
    return {
      ...refined,
      overall_score: score,
      suspicion_score: score,
      assessment: assessRepository(score, parts.bands),
    };
  }
  return { ...refined, overall_score: score, suspicion_score: score, assessment: assessWebsite(score) };
}
