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

/**
 * What reporters say about a result, written once for every forge: the one-line verdict,
 * the `report.fail_on` policy, and the Markdown summary (check runs, merge request notes).
 * @since 1.3
 */
export type FailOn = 'never' | 'suspicious' | 'likely_ai_generated';

/** `report.fail_on`: never, or from the assessment named upwards (website assessments rank the same). */
export function failsPolicy(assessment: string, failOn: FailOn): boolean {
  return failOn !== 'never' && assessmentLevel(assessment) >= assessmentLevel(failOn);
}

/** `suspicious: score 0.22, 22% assistant share, 9 of 41 commits flagged (6 attributed)`, cut at `max` characters. */
export function verdictLine(result: AnalysisResult, max = 140): string {
  const text =
    result.source_type !== 'git'
      ? `${result.assessment}: page score ${result.overall_score.toFixed(2)}`
      : (() => {
          const flagged = result.suspicions.length;
          const explicit = result.suspicions.filter((s) => s.evidence === 'explicit').length;
          return `${result.assessment}: score ${result.overall_score.toFixed(2)}, ${(result.ai_share * 100).toFixed(0)}% assistant share, ${flagged} of ${result.scored_commits} commits flagged${explicit > 0 ? ` (${explicit} attributed)` : ''}`;
        })();
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
