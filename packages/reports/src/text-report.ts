import type { AnalysisResult, RepositoryResult, WebsiteResult } from '@cadence-detect/plugin-sdk';
import type { ReportContext } from './render.js';
import { displayLine as oneLine, displayText } from './display-text.js';
import { count, counted } from './numbers.js';
import {
  assistantsLine,
  eraCheckSentence,
  linesEraSentence,
  evidenceLabel,
  pageScoreMeaning,
  scoreMeaning,
  strongestPageSignals,
  thresholdsLine,
} from './explain.js';

/** Flagged commits a short report lists (the full one lists 50, the JSON report all). */
const SHORT_FINDINGS = 5;

/**
 * The readable report: the verdict first, then what it rests on. `verbose: false` (what
 * `cadence analyze` prints on a terminal without --verbose) keeps the few findings that matter and
 * leaves the authors, the strategies and every reason to the full report.
 */
export function renderText(
  result: AnalysisResult,
  context?: ReportContext,
  options: { verbose?: boolean } = {},
): string {
  const verbose = options.verbose ?? true;
  const floor = result.source_type === 'git' ? eraCheckSentence(result) : null;
  const lines = [
    verdictLine(result),
    ...(floor ? [floor] : []),
    ...(result.source_type === 'git' ? repositoryLines(result, verbose) : websiteLines(result)),
  ];
  if (!verbose) {
    lines.push(
      '',
      'More: cadence analyze --verbose (every finding, the authors and the strategies), or -o report.html',
    );
    return `${displayText(lines.join('\n'))}\n`;
  }
  lines.push('', 'Strategies:');
  for (const s of result.strategy_results) {
    const status = s.error
      ? `error: ${oneLine(s.error)}`
      : `${s.detections} detection${s.detections === 1 ? '' : 's'}, score ${s.score.toFixed(2)}`;
    lines.push(`  ${oneLine(s.name).padEnd(24)} ${status} (${s.duration_ms} ms)`);
  }
  if (result.ai) {
    lines.push('', `AI analysis (${oneLine(result.ai.provider)}, ${oneLine(result.ai.model)}):`);
    if (result.ai.error) lines.push(`  skipped: ${oneLine(result.ai.error.code)}: ${oneLine(result.ai.error.message)}`);
    for (const v of result.ai.verdicts)
      lines.push(`  ${oneLine(v.item)}: ${oneLine(v.assessment)} (${v.confidence.toFixed(2)}) ${oneLine(v.reasoning)}`);
  }
  if (context)
    lines.push('', `Made by ${oneLine(context.tool)} ${oneLine(context.version)} at ${oneLine(context.generated_at)}.`);
  // Each field above is already one clean line; this pass keeps a field a future edit forgets safe.
  return `${displayText(lines.join('\n'))}\n`;
}

/** One line a person reads first: the verdict and the count behind it. */
function verdictLine(result: AnalysisResult): string {
  if (result.source_type === 'git') {
    // Flagged of scored, as every later line counts them; what was not scored is said here once.
    const unscored = result.total_commits - result.scored_commits;
    return `Verdict: ${result.assessment}: ${result.suspicious_commits} of ${result.scored_commits} scored commits flagged, assistant share ${Math.round(result.ai_share * 100)}%${unscored > 0 ? ` (${result.total_commits} read; ${unscored} not scored: merges, automation and commits without changed lines)` : ''}`;
  }
  return `Verdict: ${result.assessment} (score ${result.overall_score.toFixed(2)})`;
}

/** Empty commits are shown apart: they change no line, so they are never judged (docs/scoring.md). */
function emptyCommitLines(r: RepositoryResult): string[] {
  const empty = r.empty_commits;
  if (!empty || empty.commits === 0) return [];
  const by = Object.entries(empty.assistants).map(([name, n]) => `${oneLine(name)} ${n}`);
  return [
    `Empty commits: ${empty.commits} change no line, not judged${by.length > 0 ? ` (by assistants: ${by.join(', ')})` : ''}`,
  ];
}

/** Automation is shown apart: its commits are neither a person's nor an assistant's (docs/scoring.md). */
function automationLines(r: RepositoryResult): string[] {
  const count = r.automation_commits ?? 0;
  if (count === 0) return [];
  const accounts = r.authors.filter((a) => a.automation).map((a) => `${oneLine(a.author)} ${a.commits}`);
  return [
    `Automation: ${count} commit${count === 1 ? '' : 's'} not judged${accounts.length > 0 ? ` (${accounts.join(', ')})` : ''}`,
  ];
}

const percent = (share: number | null): string => (share === null ? 'n/a' : `${Math.round(share * 100)}%`);

/** One line each for the code at HEAD and how it lasted (docs/lines.md), or why they were not counted. */
export function codeLines(r: RepositoryResult): string[] {
  if (!r.lines) return r.lines_skipped ? [`Code at HEAD: not counted (${oneLine(r.lines_skipped)})`] : [];
  const l = r.lines;
  const out = [
    `Code at HEAD: ${percent(l.share)} assistant-made (${count(l.explicit)} explicit + ${count(l.inferred)} inferred of ${count(l.counted)} lines${l.automation > 0 ? `, ${count(l.automation)} automation` : ''}${l.outside > 0 ? `, ${count(l.outside)} from before the range` : ''}${l.records ? `; ${count(l.records.marked)} named by line records${l.records.skipped > 0 ? `, ${count(l.records.skipped)} records skipped` : ''}` : ''})`,
  ];
  const floor = linesEraSentence(l);
  if (floor) out.push(floor);
  const s = r.survival;
  if (s) {
    const rate = (part: number, whole: number): string => (whole > 0 ? `${Math.round((part / whole) * 100)}%` : 'n/a');
    out.push(
      `Does it last: assistant lines ${rate(s.assistant.surviving, s.assistant.added)} surviving, ${rate(s.assistant.reworked_14d, s.assistant.added)} reworked within 14 days; human ${rate(s.human.surviving, s.human.added)} and ${rate(s.human.reworked_14d, s.human.added)}`,
    );
  }
  return out;
}

function repositoryLines(r: RepositoryResult, verbose: boolean): string[] {
  const m = r.metrics;
  const lines = [
    `Repository: ${oneLine(r.repo)}${r.branch ? ` (${oneLine(r.branch)})` : ''} at ${r.head_commit.slice(0, 12)}`,
    `Assessment: ${r.assessment}  (overall score ${r.overall_score.toFixed(2)}, ai_share ${r.ai_share.toFixed(2)})`,
    ...scoreMeaning(r).map((line) => `  ${line}`),
    `Commits: ${count(r.total_commits)} analyzed, ${count(r.scored_commits)} scored, ${count(r.suspicious_commits)} flagged; ${counted(m.additions ?? 0, 'addition')}, ${counted(m.deletions ?? 0, 'deletion')}, ${counted(m.authors ?? 0, 'author')}`,
    oneLine(assistantsLine(r)),
    ...automationLines(r),
    ...emptyCommitLines(r),
    ...codeLines(r),
    thresholdsLine(r.thresholds),
  ];
  if (verbose && r.months && r.months.length > 1) {
    lines.push('', 'Trend (month: commits, assistant share = explicit + inferred; the last 12 months with commits):');
    for (const m of r.months.slice(-12)) {
      const share = m.explicit_share + m.inferred_share;
      lines.push(
        `  ${m.month}  ${String(m.commits).padStart(6)}  ${(share * 100).toFixed(0).padStart(3)}% = ${(m.explicit_share * 100).toFixed(0)}% + ${(m.inferred_share * 100).toFixed(0)}%`,
      );
    }
  }
  if (verbose && r.authors.length > 0) {
    lines.push('', 'Authors (commits, attributed, flagged, share):');
    for (const a of r.authors.slice(0, 10)) {
      lines.push(
        `  ${oneLine(a.author).slice(0, 40).padEnd(40)} ${String(a.commits).padStart(6)} ${String(a.attributed).padStart(6)} ${String(a.flagged).padStart(6)}  ${a.automation ? 'automation' : a.share.toFixed(2)}`,
      );
    }
    if (r.authors.length > 10) lines.push(`  … and ${r.authors.length - 10} more (see the JSON report)`);
  }
  if (r.suspicions.length > 0) {
    lines.push('', 'Flagged commits (evidence: explicit = the history says so, inferred = how the commit looks):');
    const shown = [...r.suspicions].sort((a, b) => b.confidence - a.confidence).slice(0, verbose ? 50 : SHORT_FINDINGS);
    for (const s of shown) {
      lines.push(
        fitLine(
          `  ${s.commit_hash}  ${s.severity.padEnd(6)} ${s.confidence.toFixed(2)}  ${evidenceLabel(s.evidence).padEnd(8)} ${oneLine(s.message)}`,
        ),
      );
      for (const reason of verbose ? s.reasons : s.reasons.slice(0, 1))
        lines.push(fitLine(`      - ${oneLine(reason)}`));
    }
    if (r.suspicions.length > shown.length)
      lines.push(
        `  … and ${r.suspicions.length - shown.length} more (${verbose ? 'see the JSON report' : '--verbose lists 50, the JSON report all'})`,
      );
  }
  return lines;
}

/** A finding's line kept to a terminal's reading width (the JSON and HTML reports keep it whole). */
const MAX_FINDING_LINE = 160;
function fitLine(line: string): string {
  return line.length <= MAX_FINDING_LINE ? line : `${line.slice(0, MAX_FINDING_LINE - 1)}\u2026`;
}

function websiteLines(r: WebsiteResult): string[] {
  const lines = [
    `Website: ${oneLine(r.url)}${r.final_url !== r.url ? ` (→ ${oneLine(r.final_url)})` : ''}`,
    `Assessment: ${r.assessment}  (overall score ${r.overall_score.toFixed(2)})`,
    `Text: ${r.metrics.words ?? 0} words, ${r.metrics.sentences ?? 0} sentences; ${r.strategies_triggered} strategies triggered`,
    '',
    ...pageScoreMeaning(r).map(oneLine),
  ];
  const strongest = strongestPageSignals(r);
  if (strongest.length > 0) {
    lines.push('', 'Strongest signals (against what human pages show):');
    for (const s of strongest)
      lines.push(`  ${oneLine(s.strategy).padEnd(24)} ${s.score.toFixed(2)}  ${oneLine(s.message)}`);
  }
  if (r.detections.length > 0) {
    lines.push('', 'Detections:');
    for (const d of r.detections.slice(0, 50)) {
      lines.push(`  ${oneLine(d.strategy).padEnd(24)} ${d.severity.padEnd(6)} ${oneLine(d.message)}`);
      if (d.element) lines.push(`      at ${oneLine(d.element)}`);
    }
  }
  return lines;
}
