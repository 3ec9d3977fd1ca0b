import { ASSESSMENT_LEVELS, severityFromScore, type AssessmentBands, type RepositoryAssessment, type WebsiteAssessment } from '@cadence-detect/plugin-sdk';

/** The default repository bands over ai_share (configuration `assessment.*`, docs/scoring.md). */
export const DEFAULT_ASSESSMENT_BANDS: Readonly<AssessmentBands> = Object.freeze({ suspicious: 0.15, likely_ai_generated: 0.5 });

/** A repository's assessment from its overall score (ai_share, moved by the AI second opinion if any). */
export function assessRepository(score: number, bands: AssessmentBands = DEFAULT_ASSESSMENT_BANDS): RepositoryAssessment {
  if (score >= bands.likely_ai_generated) return 'likely_ai_generated';
  if (score >= bands.suspicious) return 'suspicious';
  return 'clean';
}

/** docs/scoring.md: the website assessment uses the severity bands (one place: severityFromScore). */
export function assessWebsite(score: number): WebsiteAssessment {
  const severity = severityFromScore(score);
  return ASSESSMENT_LEVELS.find((level) => level.severity === severity)!.website;
}
