import {
  clampScore,
  severityFromScore,
  type AiVerdict,
  type AnalysisResult,
  type Detection,
} from '@cadence-detect/plugin-sdk';
import type { FlaggedItem } from './flagged-items.js';

/** How much the model's opinion can move things (docs/ai.md). */
export const ITEM_WEIGHT = 0.5;
export const OVERALL_WEIGHT = 0.25;

function verdictValue(verdict: AiVerdict): number {
  return verdict.assessment === 'ai_generated' ? 1 : verdict.assessment === 'human' ? 0 : 0.5;
}

/** An item's confidence moves towards the verdict by ITEM_WEIGHT × the verdict's confidence. */
export function blend(confidence: number, verdict: AiVerdict): number {
  const w = ITEM_WEIGHT * verdict.confidence;
  return Math.round(clampScore(confidence * (1 - w) + verdictValue(verdict) * w) * 1000) / 1000;
}

/**
 * Applies verdicts: each judged item's confidence is blended towards the verdict, and the overall
 * score moves by OVERALL_WEIGHT × the mean of confidence × (verdict − 0.5) × 2 (at most ±0.25).
 * The engine recomputes the assessment from the new score.
 */
export function applyVerdicts(
  result: AnalysisResult,
  items: readonly FlaggedItem[],
  verdicts: readonly AiVerdict[],
): AnalysisResult {
  if (verdicts.length === 0) return result;
  const byItem = new Map(verdicts.map((v) => [v.item, v]));
  const shift = verdicts.reduce((sum, v) => sum + v.confidence * (verdictValue(v) - 0.5) * 2, 0) / verdicts.length;
  const overall = clampScore(result.overall_score + OVERALL_WEIGHT * shift);
  if (result.source_type === 'git') {
    // Verdicts name the item ids the model was shown; each maps back to its item's full hash.
    const byCommit = new Map(items.flatMap((i) => (i.commit ? [[i.commit, byItem.get(i.id)] as const] : [])));
    const suspicions = result.suspicions.map((s) => {
      const verdict = byCommit.get(s.commit);
      if (!verdict) return s;
      const confidence = blend(s.confidence, verdict);
      return {
        ...s,
        confidence,
        severity: severityFromScore(confidence),
        reasons: [...s.reasons, `ai: ${verdict.assessment} (${verdict.confidence}): ${verdict.reasoning}`],
      };
    });
    const detections = result.detections.map((d) => adjustDetection(d, d.commit ? byCommit.get(d.commit) : undefined));
    return { ...result, suspicions, detections, overall_score: overall, suspicion_score: overall };
  }
  const byElement = new Map(items.flatMap((i) => (i.element ? [[i.element, byItem.get(i.id)] as const] : [])));
  const detections = result.detections.map((d) => adjustDetection(d, d.element ? byElement.get(d.element) : undefined));
  return { ...result, detections, overall_score: overall, suspicion_score: overall };
}

function adjustDetection(detection: Detection, verdict: AiVerdict | undefined): Detection {
  if (!verdict) return detection;
  return { ...detection, confidence: blend(detection.confidence, verdict) };
}
