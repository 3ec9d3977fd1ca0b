import { verdictLine } from '@cadence-detect/plugin-sdk';
import type { RepositoryResult } from '@cadence-detect/plugin-sdk';
import { addedLinesSentence, codeQualityReport, type CodeQualityIssue } from '@cadence-detect/forge-kit';

/** The report's id on the commit: one Cadence report per commit, replaced by the next run. */
export const INSIGHTS_REPORT_ID = 'cadence';
/** Bitbucket takes at most 1,000 annotations per report, 100 per request. */
const MAX_ANNOTATIONS = 1000;
export const ANNOTATIONS_PER_REQUEST = 100;

/** A Code Insights report (Bitbucket Cloud's `PUT …/commit/{commit}/reports/{id}` body). */
export interface InsightsReport {
  readonly title: string;
  readonly details: string;
  readonly report_type: 'BUG';
  readonly reporter: string;
  readonly result: 'PASSED' | 'FAILED';
  readonly data: readonly { title: string; type: 'TEXT' | 'NUMBER' | 'PERCENTAGE'; value: string | number }[];
}

/** One Code Insights annotation (`POST …/reports/{id}/annotations`, in batches). */
export interface InsightsAnnotation {
  readonly external_id: string;
  readonly annotation_type: 'CODE_SMELL';
  readonly summary: string;
  readonly path: string;
  readonly line: number;
  readonly severity: 'LOW' | 'MEDIUM' | 'HIGH';
}

const SEVERITY: Record<CodeQualityIssue['severity'], InsightsAnnotation['severity']> = {
  info: 'LOW',
  minor: 'MEDIUM',
  major: 'HIGH',
  critical: 'HIGH',
  blocker: 'HIGH',
};

/**
 * The verdict as Bitbucket shows it on a pull request: the report (the verdict, the share, the
 * counts; FAILED when the verdict reached fail-on) and one annotation per flagged commit, on the
 * same file and line the GitLab Code Quality issues use (the commit's most-changed file still at
 * the head, line 1).
 */
export function codeInsights(
  result: RepositoryResult,
  checkoutDir: string,
  gateReached: boolean,
): { report: InsightsReport; annotations: InsightsAnnotation[]; withoutLocation: number } {
  const { issues, withoutLocation } = codeQualityReport(result, checkoutDir, gateReached);
  const report: InsightsReport = {
    title: 'Cadence',
    details: [verdictLine(result, 400), ...addedLinesSentence(result)].join(' ').slice(0, 2000),
    report_type: 'BUG',
    reporter: 'Cadence',
    result: gateReached ? 'FAILED' : 'PASSED',
    data: [
      { title: 'Assessment', type: 'TEXT', value: result.assessment.replace(/_/g, ' ') },
      { title: 'Assistant share', type: 'PERCENTAGE', value: Math.round(result.ai_share * 1000) / 10 },
      { title: 'Flagged commits', type: 'NUMBER', value: result.suspicions.length },
      { title: 'Commits', type: 'NUMBER', value: result.total_commits },
    ],
  };
  const annotations = issues.slice(0, MAX_ANNOTATIONS).map((issue) => ({
    external_id: issue.fingerprint.slice(0, 64),
    annotation_type: 'CODE_SMELL' as const,
    summary: issue.description.slice(0, 450),
    path: issue.location.path,
    line: issue.location.lines.begin,
    severity: SEVERITY[issue.severity],
  }));
  return { report, annotations, withoutLocation };
}
