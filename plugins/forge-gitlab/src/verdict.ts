import { type AnalysisResult, failsPolicy, verdictLine, type FailOn } from '@cadence-detect/plugin-sdk';

export { failsPolicy, type FailOn };

/** One line for a commit status (GitLab keeps 255 characters). */
export function statusDescription(result: AnalysisResult): string {
  return verdictLine(result, 255);
}

/** The merge request note: forge-kit's request comment (its marker finds it again on the next push). */
export { REPORT_COMMENT_MARKER as NOTE_MARKER, reportCommentBody as noteBody } from '@cadence-detect/forge-kit';
