import { verdictLine } from '@cadence-detect/plugin-sdk';
import type { AnalysisResult, RepositoryResult } from '@cadence-detect/plugin-sdk';

/**
 * Text from a repository (messages, author names) cannot open a link, a table cell, a mention or
 * HTML, and reaches the reader as the text it is. GitHub's Markdown also turns bare `https://…`,
 * `http://…` and `www.…` into links (GFM's autolinks): every `:` is escaped, so no scheme forms,
 * and the `.` after `www`; an escaped `@` already keeps an address from becoming a mailto link.
 */
export function escapeMarkdown(text: string): string {
  return text
    .replace(/[\\`*_{}[\]()#+!|<>~@:]/g, (c) => `\\${c}`)
    .replace(/(www)\./gi, '$1\\.')
    .replace(/[\r\n]+/g, ' ');
}

/** The Markdown body of a summary: share, per-assistant and per-author tables, the ten strongest findings with their reasons. */
export function markdownDetails(result: AnalysisResult): string[] {
  if (result.source_type !== 'git') return [];
  return repositoryDetails(result);
}

function repositoryDetails(r: RepositoryResult): string[] {
  const lines = [
    `Assistant share (mean probability over ${r.scored_commits} scored commits): **${r.ai_share.toFixed(2)}**; ${r.attributed_commits} commits attributed explicitly.`,
  ];
  if (r.squash)
    lines.push(
      '',
      r.squash.judged_by === 'request'
        ? `Judged by request ${r.squash.request}'s original commits (the push squashed it).`
        : `The push squashed request ${r.squash.request}, whose commits could not be used: judged as one commit.`,
    );
  const assistants = Object.entries(r.assistants).sort((a, b) => b[1] - a[1]);
  if (assistants.length > 0)
    lines.push(
      '',
      '| Assistant | Commits |',
      '|---|---|',
      ...assistants.map(([name, n]) => `| ${escapeMarkdown(name)} | ${n} |`),
    );
  if (r.authors.length > 0) {
    lines.push('', '| Author | Commits | Attributed | Flagged | Share |', '|---|---|---|---|---|');
    for (const a of r.authors.slice(0, 20))
      lines.push(
        `| ${escapeMarkdown(a.author)} | ${a.commits} | ${a.attributed} | ${a.flagged} | ${a.share.toFixed(2)} |`,
      );
  }
  const top = [...r.suspicions].sort((a, b) => b.confidence - a.confidence).slice(0, 10);
  if (top.length > 0) {
    lines.push('', '**Top findings**', '');
    for (const s of top)
      lines.push(
        `- \`${s.commit_hash}\` ${escapeMarkdown(s.message.split('\n')[0] ?? '')} (${s.evidence}, confidence ${s.confidence.toFixed(2)}): ${escapeMarkdown(s.reasons.join('; '))}`,
      );
  }
  return lines;
}

/**
 * The marker that finds Cadence's own pull-request comment again on the next push (one comment per request, edited).
 * @since 1.13
 */
export const REPORT_COMMENT_MARKER = '<!-- cadence-report -->';

/**
 * A pull or merge request's comment: the marker, the verdict on the head, the Markdown summary, and
 * a link to the full report when the server has a public address; at most `max` characters.
 * @since 1.13
 */
export function reportCommentBody(result: AnalysisResult, sha: string, jobUrl: string | null, max = 1_000_000): string {
  const lines = [
    REPORT_COMMENT_MARKER,
    `**Cadence** on ${sha.slice(0, 12)}: **${escapeMarkdown(verdictLine(result, 255))}**`,
    '',
    ...markdownDetails(result),
  ];
  if (jobUrl) lines.push('', `[The full report](${jobUrl})`);
  return lines.join('\n').slice(0, max);
}
