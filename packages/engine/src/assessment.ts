import {
  ASSESSMENT_LEVELS,
  assessShare,
  DEFAULT_ASSESSMENT_BANDS,
  severityFromScore,
  type AssessmentBands,
  type RepositoryAssessment,
  type WebsiteAssessment,
} from '@cadence-detect/plugin-sdk';

export { DEFAULT_ASSESSMENT_BANDS };

/** A repository's assessment from its overall score (ai_share, moved by the AI second opinion if any). */
export function assessRepository(
  score: number,
  bands: AssessmentBands = DEFAULT_ASSESSMENT_BANDS,
): RepositoryAssessment {
  return assessShare(score, bands);
}

/** docs/scoring.md: the website assessment uses the severity bands (one place: severityFromScore). */
export function assessWebsite(score: number): WebsiteAssessment {
  const severity = severityFromScore(score);
  const level = ASSESSMENT_LEVELS.find((candidate) => candidate.severity === severity);
  if (!level) throw new Error(`no assessment level has the severity ${severity}`);
  return level.website;
}
