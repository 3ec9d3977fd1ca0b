import {
  clampScore,
  severityFromScore,
  type Detection,
  type Finding,
  type StrategyResult,
} from '@cadence-detect/plugin-sdk';
import type { RegisteredStrategy } from './strategy-registry.js';
import type { StrategyRun } from './strategy-runner.js';

/** A calibrated repository strategy's prior when it names none (docs/scoring.md). */
export const DEFAULT_PRIOR = 0.05;

/** One strategy's run turned into the published shapes. */
export interface StrategyReport {
  readonly strategy: RegisteredStrategy;
  readonly result: StrategyResult;
  readonly detections: readonly Detection[];
  readonly metrics: Readonly<Record<string, number>>;
  /** A calibrated strategy's per-commit probabilities and flag cut-off (meta.calibrated only). */
  readonly calibration?: {
    readonly probabilities: ReadonlyMap<string, number>;
    readonly flagAt: number;
    readonly prior: number;
  };
  /** What a calibrated strategy's probability includes; websites: a floor on the page score. */
  readonly covers?: readonly string[];
  readonly floor?: number;
}

export function reportStrategyRun(strategy: RegisteredStrategy, run: StrategyRun): StrategyReport {
  const { name, category, weight } = strategy.info;
  if (!run.ok) {
    return {
      strategy,
      result: {
        name,
        category,
        detected: false,
        detections: 0,
        score: 0,
        duration_ms: run.durationMs,
        error: run.error,
      },
      detections: [],
      metrics: {},
    };
  }
  const detections = run.outcome.findings.map((finding) => toDetection(finding, name, category, weight));
  const highest = detections.reduce((max, d) => Math.max(max, d.score), 0);
  const score = clampScore(run.outcome.score ?? highest);
  const metrics: Record<string, number> = {};
  for (const [key, value] of Object.entries(run.outcome.metrics ?? {})) metrics[`${name}_${key}`] = value;
  const { probabilities, flagAt, prior } = run.outcome;
  const calibration =
    strategy.info.calibrated && probabilities
      ? { probabilities, flagAt: clampScore(flagAt ?? 0.5), prior: clampScore(prior ?? DEFAULT_PRIOR) }
      : undefined;
  return {
    strategy,
    ...(calibration ? { calibration } : {}),
    ...(run.outcome.covers ? { covers: run.outcome.covers } : {}),
    ...(run.outcome.floor !== undefined ? { floor: clampScore(run.outcome.floor) } : {}),
    result: {
      name,
      category,
      detected: detections.length > 0,
      detections: detections.length,
      score: round(score),
      duration_ms: run.durationMs,
      error: null,
    },
    detections,
    metrics,
  };
}

function toDetection(
  finding: Finding & { readonly message: string },
  strategy: string,
  category: string,
  weight: number,
): Detection {
  const score = clampScore(finding.score);
  const detection: Detection = {
    strategy,
    category,
    severity: severityFromScore(score),
    confidence: round(score * weight),
    score: round(score),
    message: finding.message,
    evidence: finding.evidence ?? 'inferred',
  };
  if (finding.messageId !== undefined) detection.messageId = finding.messageId;
  if (finding.assistant !== undefined) detection.assistant = finding.assistant;
  if (finding.viaRequest !== undefined) detection.via_request = finding.viaRequest;
  // The full hash, as the strategy reported it: abbreviations are for display only (suspicions[].commit_hash).
  if (finding.commit !== undefined) detection.commit = finding.commit;
  if (finding.element !== undefined) detection.element = finding.element;
  return detection;
}

export function round(value: number, digits = 3): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}
