import type { AnalysisResult, RepositoryResult } from '@cadence/plugin-sdk';
import type { FailOn } from './options.js';

const RANK: Record<string, number> = { clean: 0, suspicious: 1, likely_ai_generated: 2, 'Likely Human-Written': 0, 'Suspicious Activity': 1, 'Likely AI-Generated': 2 };

/** `report.fail_on`: never, or from the assessment named upwards. */
export function failsPolicy(assessment: string, failOn: FailOn): boolean {
  return failOn !== 'never' && (RANK[assessment] ?? 0) >= RANK[failOn]!;
}

/** One line for a commit status (GitLab keeps 255 characters). */
export function statusDescription(result: AnalysisResult): string {
  if (result.source_type !== 'git') return `${result.assessment}: page score ${result.overall_score.toFixed(2)}`;
  const flagged = result.suspicions.length;
  const explicit = result.suspicions.filter((s) => s.evidence === 'explicit').length;
  return `${result.assessment}: score ${result.overall_score.toFixed(2)}, ${(result.ai_share * 100).toFixed(0)}% assistant share, ${flagged} of ${result.scored_commits} commits flagged${explicit > 0 ? ` (${explicit} attributed)` : ''}`.slice(0, 255);
}

/** The marker that finds Cadence's own note again on the next push (one note per merge request, updated). */
export const NOTE_MARKER = '<!-- cadence-report -->';

/** The merge request note: the verdict, the share, per-assistant and per-author tables, the top findings. */
export function noteBody(result: AnalysisResult, sha: string, jobUrl: string | null): string {
  const lines = [NOTE_MARKER, `**Cadence** on ${sha.slice(0, 12)}: **${escapeMarkdown(statusDescription(result))}**`];
  if (result.source_type === 'git') lines.push('', ...repositoryLines(result));
  if (jobUrl) lines.push('', `[The full report](${jobUrl})`);
  return lines.join('\n').slice(0, 1_000_000);
}

function repositoryLines(r: RepositoryResult): string[] {
  const lines: string[] = [];
  const assistants = Object.entries(r.assistants).sort((a, b) => b[1] - a[1]);
  if (assistants.length > 0) lines.push('| Assistant | Commits |', '|---|---|', ...assistants.map(([name, n]) => `| ${escapeMarkdown(name)} | ${n} |`), '');
  if (r.authors.length > 0) {
    lines.push('| Author | Commits | Attributed | Flagged | Share |', '|---|---|---|---|---|');
    for (const a of r.authors.slice(0, 20)) lines.push(`| ${escapeMarkdown(a.author)} | ${a.commits} | ${a.attributed} | ${a.flagged} | ${a.share.toFixed(2)} |`);
  }
  const top = [...r.suspicions].sort((a, b) => b.confidence - a.confidence).slice(0, 10);
  if (top.length > 0) {
    lines.push('', '**Top findings**', '');
    for (const s of top) lines.push(`- \`${s.commit_hash}\` ${escapeMarkdown(s.message.split('\n')[0] ?? '')} (${s.evidence}, confidence ${s.confidence.toFixed(2)}): ${escapeMarkdown(s.reasons.join('; '))}`);
  }
  return lines;
}

/** Text from a repository cannot open a link, a table cell, a mention or HTML. */
export function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+!|<>~@]/g, (c) => `\\${c}`).replace(/[\r\n]+/g, ' ');
}
