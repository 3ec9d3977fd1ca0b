/** What a job analyzes. A strategy declares which one it applies to. */
export type SourceKind = 'repository' | 'website';

export type Severity = 'low' | 'medium' | 'high';

/** Severity bands (docs/scoring.md): `low` < 0.4 <= `medium` < 0.7 <= `high`. */
export function severityFromScore(score: number): Severity {
  if (score >= 0.7) return 'high';
  if (score >= 0.4) return 'medium';
  return 'low';
}

export function clampScore(value: number): number {
  if (!Number.isFinite(value)) return 0;
  return Math.min(1, Math.max(0, value));
}
