import { type AnalysisResult, failsPolicy, verdictLine, type FailOn } from '@cadence-detect/plugin-sdk';
import { markdownDetails, escapeMarkdown } from '@cadence-detect/forge-kit';

export { failsPolicy, escapeMarkdown, type FailOn };

/** What a status or check says about a result, and whether the policy fails it. */
export interface Verdict {
  readonly failing: boolean;
  /** One line, at most 140 characters (GitHub's limit for a status description). */
  readonly description: string;
}

export function verdictOf(result: AnalysisResult, failOn: FailOn): Verdict {
  return { failing: failsPolicy(result.assessment, failOn), description: verdictLine(result, 140) };
}

/** The check run's Markdown summary: verdict, share, assistants, authors, the top findings with their reasons. */
export function checkSummary(result: AnalysisResult, failOn: FailOn, jobUrl: string | null): string {
  const lines = [`**${escapeMarkdown(verdictLine(result, 140))}**`, '', ...markdownDetails(result)];
  if (jobUrl) lines.push('', `[The full report](${jobUrl})`);
  lines.push('', `Policy: \`report.fail_on: ${failOn}\`.`);
  // GitHub takes at most 65,535 characters.
  return lines.join('\n').slice(0, 65_000);
}
