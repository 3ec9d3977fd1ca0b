import { type RepositoryResult, type Suspicion } from '@cadence-detect/plugin-sdk';
import { escapeMarkdown } from './report-helpers.js';
import { displayLine } from '@cadence-detect/reports/display-text';

/** How many flagged commits the summary lists (the SARIF and the JSON report have all). */
const TOP_FINDINGS = 10;

/** Commit subjects and author names are the change author's words: one clean line, Markdown escaped (the SDK's escape). */
const cell = (text: string): string => escapeMarkdown(displayLine(text));

const percent = (share: number): string => `${Math.round(share * 100)}%`;

/** The job summary: the verdict, the assistants, and the commits that matter most. */
export function ciSummary(
  result: RepositoryResult,
  range: { base: string | null; head: string },
  gate: { readonly failOn: string | null; readonly gateReached: boolean } = { failOn: null, gateReached: false },
): string {
  const lines = [
    `## Cadence: ${result.assessment.replace(/_/g, ' ')}`,
    '',
    `${result.suspicions.length} of ${result.total_commits} commits flagged · assistant share of commits ${percent(result.ai_share)} · score ${result.overall_score.toFixed(2)}`,
    range.base
      ? `Commits after \`${range.base.slice(0, 12)}\` up to \`${range.head.slice(0, 12)}\`.`
      : `The whole history up to \`${range.head.slice(0, 12)}\`.`,
    ...addedLinesSentence(result),
    gate.failOn === null
      ? 'Gate: none (no fail-on level): this step passes whatever the verdict.'
      : gate.gateReached
        ? `Gate: **failed**: the verdict ${result.assessment} reaches fail-on ${gate.failOn}.`
        : `Gate: passed: the verdict ${result.assessment} is below fail-on ${gate.failOn}.`,
    '',
  ];
  const assistants = Object.entries(result.assistants).sort((a, b) => b[1] - a[1]);
  if (assistants.length > 0) {
    lines.push(
      '| assistant | commits |',
      '|---|---:|',
      ...assistants.map(([name, count]) => `| ${cell(name)} | ${count} |`),
      '',
    );
  }
  const top = [...result.suspicions].sort(bySeverity).slice(0, TOP_FINDINGS);
  if (top.length > 0) {
    lines.push('| commit | severity | evidence | why |', '|---|---|---|---|');
    for (const s of top)
      lines.push(
        `| \`${s.commit_hash}\` ${cell(s.message.split('\n')[0] ?? '').slice(0, 200)} | ${s.severity} | ${s.evidence} | ${cell(s.reasons[0] ?? '').slice(0, 200)} |`,
      );
    if (result.suspicions.length > top.length)
      lines.push(
        '',
        `… and ${result.suspicions.length - top.length} more (the SARIF and JSON reports list every one).`,
      );
    lines.push('');
  }
  return `${lines.join('\n')}\n`;
}

/** What the change adds, in lines, and how much of it assistant-made commits wrote (docs/lines.md); none without lines. */
export function addedLinesSentence(result: RepositoryResult): string[] {
  const survival = result.survival;
  if (!survival) return [];
  const added = survival.assistant.added + survival.human.added;
  if (added <= 0) return [];
  // An expectation (probability times lines): a small one is said with its decimal, never "about 0 (4%)".
  const expected = survival.assistant.added;
  const shown = expected > 0 && expected < 10 ? expected.toFixed(1) : Math.round(expected).toLocaleString('en-US');
  const total = Math.round(added);
  return [
    `Adds ${total.toLocaleString('en-US')} ${total === 1 ? 'line' : 'lines'}; an expected ${shown} (${Math.round((expected / added) * 100)}%) of them from assistant-made commits (lines weigh each commit by its size, the commit share does not).`,
  ];
}

const SEVERITY_RANK: Record<string, number> = { critical: 4, high: 3, medium: 2, low: 1 };

function bySeverity(a: Suspicion, b: Suspicion): number {
  return (SEVERITY_RANK[b.severity] ?? 0) - (SEVERITY_RANK[a.severity] ?? 0) || b.confidence - a.confidence;
}
