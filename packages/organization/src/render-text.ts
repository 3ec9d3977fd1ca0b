import { displayLine as oneLine } from '@cadence-detect/reports/display-text';
import type { OrganizationResult } from './organization-result.js';

const pct = (share: number | null): string => (share === null ? '  -' : `${Math.round(share * 100)}%`.padStart(4));

const BANDS = ['likely_ai_generated', 'suspicious', 'clean'] as const;
const NAMES_PER_BAND = 5;

/**
 * "1 repository likely_ai_generated (acme/x 68%), 2 suspicious (…), 2 clean": how many analysed
 * repositories sit in each band and which (the clean ones counted only), most assistant-made first.
 */
export function bandsSentence(org: OrganizationResult, name: (repository: string) => string): string {
  const parts = BANDS.flatMap((band) => {
    const list = org.by_assessment[band];
    if (list.length === 0) return [];
    const shown =
      band === 'clean'
        ? ''
        : ` (${list
            .slice(0, NAMES_PER_BAND)
            .map((r) => `${name(r.repository)} ${Math.round(r.ai_share * 100)}%`)
            .join(', ')}${list.length > NAMES_PER_BAND ? `, ${list.length - NAMES_PER_BAND} more` : ''})`;
    return [`${list.length} ${band}${shown}`];
  });
  const analysed = org.counts.analyzed;
  return parts.length === 0
    ? 'no repository analysed'
    : `${analysed} ${analysed === 1 ? 'repository' : 'repositories'}: ${parts.join(', ')}`;
}

/** Said when the badge is raised above the pooled share's band. */
export function raisedNote(org: OrganizationResult): string {
  return org.assessment === 'suspicious' && org.ai_share < org.assessment_bands.suspicious
    ? '; the pooled share alone reads clean, but not every repository is'
    : '';
}

/** The organization result for a terminal: the verdict first, then repositories, authors and the trend. */
export function renderOrganizationText(
  org: OrganizationResult,
  options: { authors?: number; months?: number } = {},
): string {
  const failed = org.repositories.filter((r) => r.error);
  const lines = [
    `Verdict: ${org.assessment}: ${bandsSentence(org, (name) => oneLine(name))}`,
    `Pooled: assistant share ${pct(org.ai_share).trim()} of ${org.scored_commits} scored commits in ${org.counts.analyzed} of ${org.counts.listed} repositories (${org.flagged} flagged, ${org.attributed} attributed)${raisedNote(org)}`,
    `Organization: ${oneLine(org.organization)}`,
    `Assistants: ${
      Object.entries(org.assistants)
        .sort((a, b) => b[1] - a[1])
        .map(([name, n]) => `${oneLine(name)} ${n}`)
        .join(', ') || 'none attributed'
    }`,
    ...(org.automation_commits > 0 ? [`Automation: ${org.automation_commits} commits not judged`] : []),
    ...(org.lines
      ? [
          `Code at HEAD: ${pct(org.lines.share).trim()} assistant-made of ${Math.round(org.lines.counted)} lines in ${org.lines.repositories} of ${org.counts.analyzed} repositories (summed)`,
          ...[linesFloorSentence(org)].filter((sentence) => sentence !== null),
        ]
      : []),
    '',
    'Repositories (share, commits, flagged, attributed):',
    ...[...org.repositories]
      .sort((a, b) => (b.ai_share ?? -1) - (a.ai_share ?? -1) || a.repository.localeCompare(b.repository))
      .map((r) =>
        r.error
          ? `  ${oneLine(r.repository).padEnd(40)} failed: ${r.error.code}: ${oneLine(r.error.message).slice(0, 120)}`
          : `  ${oneLine(r.repository).padEnd(40)} ${pct(r.ai_share)} ${String(r.total_commits).padStart(7)} ${String(r.flagged).padStart(6)} ${String(r.attributed).padStart(6)}  ${r.assessment}`,
      ),
  ];
  const authors = org.authors.slice(0, options.authors ?? 15);
  if (authors.length > 0) {
    lines.push('', 'Authors (share, commits, flagged, attributed, repositories):');
    for (const a of authors)
      lines.push(
        `  ${oneLine(a.author).slice(0, 40).padEnd(40)} ${pct(a.share)} ${String(a.commits).padStart(7)} ${String(a.flagged).padStart(6)} ${String(a.attributed).padStart(6)} ${String(a.repositories.length).padStart(4)}`,
      );
    if (org.authors.length > authors.length)
      lines.push(`  … and ${org.authors.length - authors.length} more (see the JSON report)`);
  }
  const months = org.months.slice(-(options.months ?? 12));
  if (months.length > 0) {
    lines.push('', 'Trend (month: commits, assistant share = explicit + inferred):');
    for (const m of months)
      lines.push(
        `  ${m.month} ${String(m.commits).padStart(7)}  ${pct(m.explicit_share + m.inferred_share)} = ${pct(m.explicit_share).trim()} + ${pct(m.inferred_share).trim()}`,
      );
  }
  if (failed.length > 0)
    lines.push(
      '',
      `${failed.length} of ${org.counts.listed} repositories failed (listed above with their error codes).`,
    );
  return `${lines.join('\n')}\n`;
}

/** The organization's false-alarm floor for lines: its repositories' lines from before assistants existed, summed. */
export function linesFloorSentence(org: OrganizationResult): string | null {
  const e = org.lines?.era_check;
  if (!e) return null;
  const floor = `${(e.share * 100).toFixed(1)}%`;
  return `False-alarm floor for lines: the ${Math.round(e.lines).toLocaleString('en')} lines written before assistants existed (before ${e.before}) read ${floor} assistant-made: a line share below about ${floor} is noise.`;
}
