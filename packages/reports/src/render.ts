import { type FailOn } from '@cadence-detect/plugin-sdk';
import type { AnalysisResult } from '@cadence-detect/plugin-sdk';
import { pageScoreMeaning, scoreMeaning, strongestPageSignals } from './explain.js';
import type { ReportFormat } from './report-format.js';

/** Who made a report, when, and with which settings: the JSON report carries it as `report`. */
export interface ReportContext {
  readonly tool: string;
  readonly version: string;
  /** ISO 8601. */
  readonly generated_at: string;
  /** The effective configuration the analysis ran with (secrets masked). */
  readonly configuration: Readonly<Record<string, unknown>>;
  /**
   * The verdict policy in force (`report.fail_on`, or the CLI's `--fail-on`): SARIF marks its
   * results `error` only when the verdict reaches it. Absent or `never`: no policy.
   */
  readonly fail_on?: FailOn;
}

/** Bidirectional marks, embeddings, overrides and isolates: invisible, and they reorder what a viewer shows. */
const BIDI = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

export function hasBidi(text: string): boolean {
  BIDI.lastIndex = 0;
  return BIDI.test(text);
}

/**
 * Each bidirectional control written as its `\uXXXX` escape. Only for text where that escape means
 * the character again (inside JSON strings, YAML double-quoted scalars): nothing is lost.
 */
export function escapeBidi(serialized: string): string {
  return serialized.replace(BIDI, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** The JSON report: the result, with the report's context first when there is one; bidi controls escaped. */
export function jsonReport(result: AnalysisResult, context?: ReportContext): string {
  return `${escapeBidi(JSON.stringify(withContext(result, context), null, 2))}\n`;
}

/** The result with `report` (context, and what its score means) in front. */
export function withContext(result: AnalysisResult, context?: ReportContext): unknown {
  if (!context) return result;
  const explanation =
    result.source_type === 'git'
      ? { explanation: scoreMeaning(result) }
      : { explanation: pageScoreMeaning(result), strongest_signals: strongestPageSignals(result) };
  return { report: { ...context, ...explanation }, ...result };
}

export { reportFormatFromPath, UsageError, type ReportFormat } from './report-format.js';
export { displayLine, displayText } from './display-text.js';

/**
 * renderReport, loading only the chosen format's code: a CLI that prints text need not load the
 * HTML report or the YAML library at every start (`@cadence-detect/reports/render` imports neither).
 */
export async function renderReportLazily(
  result: AnalysisResult,
  format: ReportFormat,
  context?: ReportContext,
  options: { verbose?: boolean } = {},
): Promise<string> {
  switch (format) {
    case 'json':
      return jsonReport(result, context);
    case 'yaml':
      return (await import('./yaml-report.js')).yamlReport(result, context);
    case 'html':
      return (await import('./html-report.js')).renderHtml(result, context);
    case 'sarif':
      return (await import('./sarif-report.js')).renderSarif(result, context);
    default:
      return (await import('./text-report.js')).renderText(result, context, options);
  }
}
