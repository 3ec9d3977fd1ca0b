import {
  escapeMarkdown,
  failsPolicy,
  markdownDetails,
  verdictLine,
  type AnalysisResult,
  type FailOn,
} from '@cadence-detect/plugin-sdk';

export { failsPolicy, type FailOn };

/** One line for a commit status (GitLab keeps 255 characters). */
export function statusDescription(result: AnalysisResult): string {
  return verdictLine(result, 255);
}

/** The marker that finds Cadence's own note again on the next push (one note per merge request, updated). */
export const NOTE_MARKER = '<!-- cadence-report -->';

/** The merge request note: the verdict, the share, per-assistant and per-author tables, the top findings. */
export function noteBody(result: AnalysisResult, sha: string, jobUrl: string | null): string {
  const lines = [
    NOTE_MARKER,
    `**Cadence** on ${sha.slice(0, 12)}: **${escapeMarkdown(statusDescription(result))}**`,
    '',
    ...markdownDetails(result),
  ];
  if (jobUrl) lines.push('', `[The full report](${jobUrl})`);
  return lines.join('\n').slice(0, 1_000_000);
}
