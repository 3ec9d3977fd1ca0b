import type { SourceKind, Severity } from './source.js';
import type { AnalysisResult, AssessmentBands, RepositoryAssessment, WebsiteAssessment } from './result.js';

/**
 * The interface names a verdict twice (a repository's `clean`… and a website's `Likely
 * Human-Written`…) and a source twice (a request's `repository`/`website`, a result's
 * `git`/`web`). Both pairs are kept for compatibility; these tables are the one mapping.
 * @since 1.6
 */
export const ASSESSMENT_LEVELS: readonly {
  readonly repository: RepositoryAssessment;
  readonly website: WebsiteAssessment;
  readonly severity: Severity;
}[] = Object.freeze([
  { repository: 'clean', website: 'Likely Human-Written', severity: 'low' },
  { repository: 'suspicious', website: 'Suspicious Activity', severity: 'medium' },
  { repository: 'likely_ai_generated', website: 'Likely AI-Generated', severity: 'high' },
]);

/** 0, 1 or 2 for either vocabulary (an unknown name ranks lowest), so verdicts of both kinds compare. */
export function assessmentLevel(assessment: string): number {
  const level = ASSESSMENT_LEVELS.findIndex((l) => l.repository === assessment || l.website === assessment);
  return Math.max(0, level);
}

/** A result's `source_type` for each kind of request. */
export const SOURCE_TYPE: Readonly<Record<SourceKind, AnalysisResult['source_type']>> = Object.freeze({
  repository: 'git',
  website: 'web',
});

/** The kind of request a result answers. */
export function sourceKindOf(result: Pick<AnalysisResult, 'source_type'>): SourceKind {
  return result.source_type === 'git' ? 'repository' : 'website';
}

/** The default repository bands over `ai_share` (configuration `assessment.*`, docs/scoring.md). */
export const DEFAULT_ASSESSMENT_BANDS: Readonly<AssessmentBands> = Object.freeze({
  suspicious: 0.15,
  likely_ai_generated: 0.5,
});

/** A share's assessment by the bands: a repository's `ai_share`, or an organization's. */
export function assessShare(share: number, bands: AssessmentBands = DEFAULT_ASSESSMENT_BANDS): RepositoryAssessment {
  if (share >= bands.likely_ai_generated) return 'likely_ai_generated';
  if (share >= bands.suspicious) return 'suspicious';
  return 'clean';
}
