import type { AnalysisResult, RepositoryResult } from '@cadence/plugin-sdk';
import type { FailOn } from './options.js';

/** What a status or check says about a result, and whether the policy fails it. */
export interface Verdict {
  readonly failing: boolean;
  /** One line, at most 140 characters (GitHub's limit for a status description). */
  readonly description: string;
}

const RANK: Record<string, number> = { clean: 0, suspicious: 1, likely_ai_generated: 2, 'Likely Human-Written': 0, 'Suspicious Activity': 1, 'Likely AI-Generated': 2 };

/** `report.fail_on`: never, or from the assessment named upwards. */
export function failsPolicy(assessment: string, failOn: FailOn): boolean {
  if (failOn === 'never') return false;
  return (RANK[assessment] ?? 0) >= RANK[failOn]!;
}

export function verdictOf(result: AnalysisResult, failOn: FailOn): Verdict {
  const failing = failsPolicy(result.assessment, failOn);
  if (result.source_type !== 'git') return { failing, description: cut(`${result.assessment}: page score ${result.overall_score.toFixed(2)}`) };
  const flagged = result.suspicions.length;
  const explicit = result.suspicions.filter((s) => s.evidence === 'explicit').length;
  const share = `${(result.ai_share * 100).toFixed(0)}% assistant share`;
  const commits = `${flagged} of ${result.scored_commits} commits flagged${explicit > 0 ? ` (${explicit} attributed)` : ''}`;
  return { failing, description: cut(`${result.assessment}: score ${result.overall_score.toFixed(2)}, ${share}, ${commits}`) };
}

function cut(text: string): string {
  return text.length <= 140 ? text : `${text.slice(0, 139)}…`;
}

/** The check run's Markdown summary: verdict, share, assistants, authors, the top findings with their reasons. */
export function checkSummary(result: AnalysisResult, failOn: FailOn, jobUrl: string | null): string {
  const verdict = verdictOf(result, failOn);
  const lines = [`**${escapeMarkdown(verdict.description)}**`, ''];
  if (result.source_type === 'git') lines.push(...repositorySummary(result));
  if (jobUrl) lines.push('', `[The full report](${jobUrl})`);
  lines.push('', `Policy: \`report.fail_on: ${failOn}\`.`);
  // GitHub takes at most 65,535 characters.
  return lines.join('\n').slice(0, 65_000);
}

function repositorySummary(r: RepositoryResult): string[] {
  const lines = [`Assistant share (mean probability over ${r.scored_commits} scored commits): **${r.ai_share.toFixed(2)}**; ${r.attributed_commits} commits attributed explicitly.`];
  const assistants = Object.entries(r.assistants).sort((a, b) => b[1] - a[1]);
  if (assistants.length > 0) {
    lines.push('', '| Assistant | Commits |', '|---|---|', ...assistants.map(([name, n]) => `| ${escapeMarkdown(name)} | ${n} |`));
  }
  if (r.authors.length > 0) {
    lines.push('', '| Author | Commits | Attributed | Flagged | Share |', '|---|---|---|---|---|');
    for (const a of r.authors.slice(0, 20)) lines.push(`| ${escapeMarkdown(a.author)} | ${a.commits} | ${a.attributed} | ${a.flagged} | ${a.share.toFixed(2)} |`);
  }
  const top = [...r.suspicions].sort((a, b) => b.confidence - a.confidence).slice(0, 10);
  if (top.length > 0) {
    lines.push('', '**Top findings**', '');
    for (const s of top) lines.push(`- \`${s.commit_hash}\` ${escapeMarkdown(s.message.split('\n')[0] ?? '')} (${s.evidence}, confidence ${s.confidence.toFixed(2)}): ${escapeMarkdown(s.reasons.join('; '))}`);
  }
  return lines;
}

/** Text from a repository (commit messages, author names) cannot open a link, a table cell or HTML. */
export function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+!|<>~]/g, (c) => `\\${c}`).replace(/[\r\n]+/g, ' ');
}
