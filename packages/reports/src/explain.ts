import type { RepositoryAssessment, RepositoryResult, Severity, Thresholds } from '@cadence/plugin-sdk';

/**
 * What a repository report says its numbers mean, written once for the text and HTML reports
 * (docs/scoring.md is the long form). Plain strings: each renderer escapes them its own way.
 */

/** The badge colour follows the assessment, never the raw score: "clean" is green, whatever else. */
export function assessmentSeverity(assessment: RepositoryAssessment): Severity {
  return assessment === 'likely_ai_generated' ? 'high' : assessment === 'suspicious' ? 'medium' : 'low';
}

export function flaggedCounts(r: RepositoryResult): { flagged: number; explicit: number; inferred: number; share: number } {
  const explicit = r.suspicions.filter((s) => s.evidence === 'explicit').length;
  const flagged = r.suspicions.length;
  return { flagged, explicit, inferred: flagged - explicit, share: r.scored_commits > 0 ? flagged / r.scored_commits : 0 };
}

export function scoreMeaning(r: RepositoryResult): string[] {
  const bands = r.assessment_bands;
  const lines = [
    `ai_share ${r.ai_share.toFixed(2)}: the mean, over ${r.scored_commits} scored commits, of each commit's probability of having been made with an assistant (1 for a commit whose history says so outright).`,
    `Bands: clean below ${bands.suspicious.toFixed(2)}, suspicious from ${bands.suspicious.toFixed(2)}, likely_ai_generated from ${bands.likely_ai_generated.toFixed(2)} (configuration assessment.*).`,
  ];
  if (Math.abs(r.overall_score - r.ai_share) >= 0.0005) {
    lines.push(`The AI second opinion moved the overall score from ${r.ai_share.toFixed(2)} to ${r.overall_score.toFixed(2)}; the assessment follows the overall score.`);
  }
  const counts = flaggedCounts(r);
  lines.push(
    `${counts.flagged} of ${r.scored_commits} scored commits flagged (${(counts.share * 100).toFixed(1)}%): ${counts.explicit} by explicit attribution, ${counts.inferred} inferred.`,
  );
  lines.push(
    r.scoring === 'model'
      ? `Each commit's confidence is the commit model's calibrated probability (flagged from ${(r.flag_at ?? 0).toFixed(2)}); the velocity, timing and size findings are its reasons, and count on their own only where the thresholds were changed from their defaults.`
      : 'No calibrated strategy is enabled: each commit\u2019s confidence combines its strategies\u2019 findings (1 - product of 1 - confidence); flagged from 0.25.',
  );
  return lines;
}

export function thresholdsLine(t: Thresholds): string {
  return `Thresholds in force: suspicious_additions ${t.suspicious_additions}, suspicious_deletions ${t.suspicious_deletions}, max_additions_per_min ${t.max_additions_per_min}, max_deletions_per_min ${t.max_deletions_per_min}, min_time_delta_seconds ${t.min_time_delta_seconds} (velocity floors intervals at 30 s; "lines" means additions plus deletions).`;
}

export function assistantsLine(r: RepositoryResult): string {
  const entries = Object.entries(r.assistants).sort((a, b) => b[1] - a[1]);
  if (entries.length === 0) return 'Attributed commits: none (no trailer, footer, agent account, note or agent branch names an assistant).';
  return `Attributed commits: ${r.attributed_commits} (${entries.map(([name, n]) => `${name} ${n}`).join(', ')}).`;
}

/** The evidence a finding rests on, as reports show it. */
export function evidenceLabel(evidence: 'explicit' | 'inferred' | undefined): string {
  return evidence === 'explicit' ? 'explicit' : 'inferred';
}
