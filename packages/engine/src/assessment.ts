import type { RepositoryAssessment, WebsiteAssessment } from '@cadence/plugin-sdk';

/** Decisions §4: `clean` < 0.4 <= `suspicious` < 0.7 <= `likely_ai_generated`. */
export function assessRepository(score: number): RepositoryAssessment {
  if (score >= 0.7) return 'likely_ai_generated';
  if (score >= 0.4) return 'suspicious';
  return 'clean';
}

/** The interface's website assessment, same thresholds. */
export function assessWebsite(score: number): WebsiteAssessment {
  if (score >= 0.7) return 'Likely AI-Generated';
  if (score >= 0.4) return 'Suspicious Activity';
  return 'Likely Human-Written';
}
