import { severityFromScore, type RepositoryAssessment, type Severity, type WebsiteAssessment } from '@cadence/plugin-sdk';

/** Decisions §4: the assessments use the severity bands (one place: severityFromScore). */
const REPOSITORY: Record<Severity, RepositoryAssessment> = { low: 'clean', medium: 'suspicious', high: 'likely_ai_generated' };
const WEBSITE: Record<Severity, WebsiteAssessment> = { low: 'Likely Human-Written', medium: 'Suspicious Activity', high: 'Likely AI-Generated' };

export function assessRepository(score: number): RepositoryAssessment {
  return REPOSITORY[severityFromScore(score)];
}

export function assessWebsite(score: number): WebsiteAssessment {
  return WEBSITE[severityFromScore(score)];
}
