import type { AnalysisResult } from '@cadence-detect/plugin-sdk';
import { renderHtml } from './html-report.js';
import { renderSarif } from './sarif-report.js';
import type { ReportFormat } from './report-format.js';
import { renderText } from './text-report.js';

export { reportFormatFromPath, UsageError, type ReportFormat } from './report-format.js';
export { REPORT_CONTENT_SECURITY_POLICY } from './html-report.js';
export { aggregateTimeline } from './timeline-chart.js';
export { shareChart, trendLine, chartedMonths, ASSISTANTS_FROM } from './share-chart.js';
// The page shell, the style sheet and HTML that escapes by default (also `@cadence-detect/reports/page`, which loads no report).
export {
  bundledScript,
  escapeHtml,
  html,
  isSafeHtml,
  joinHtml,
  pageShell,
  PAGE_STYLE,
  rawHtml,
  SORTABLE_SCRIPT,
  SORTABLE_SCRIPT_HASH,
  type HtmlValue,
  type PageShell,
  type SafeHtml,
} from './page/index.js';
export { renderSarif } from './sarif-report.js';
export { displayLine, displayText } from './display-text.js';
export { renderReportLazily, jsonReport, type ReportContext } from './render.js';
import { jsonReport, type ReportContext } from './render.js';
import { yamlReport } from './yaml-report.js';
export { assessmentSeverity, scoreMeaning } from './explain.js';

/** A result as a report in one of the four formats (renderReportLazily in `./render` loads only the one it writes). */
export function renderReport(result: AnalysisResult, format: ReportFormat, context?: ReportContext): string {
  switch (format) {
    case 'json':
      return jsonReport(result, context);
    case 'yaml':
      return yamlReport(result, context);
    case 'html':
      return renderHtml(result, context);
    case 'sarif':
      return renderSarif(result, context);
    default:
      return renderText(result, context);
  }
}
