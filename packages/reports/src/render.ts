import type { AnalysisResult } from '@cadence/plugin-sdk';
import type { ReportFormat } from './report-format.js';

export { reportFormatFromPath, UsageError, type ReportFormat } from './report-format.js';
export { displayLine, displayText } from './display-text.js';

/**
 * renderReport, loading only the chosen format's code: a CLI that prints text need not load the
 * HTML report or the YAML library at every start (`@cadence/reports/render` imports neither).
 */
export async function renderReportLazily(result: AnalysisResult, format: ReportFormat): Promise<string> {
  switch (format) {
    case 'json':
      return `${JSON.stringify(result, null, 2)}\n`;
    case 'yaml': {
      const { stringify } = await import('yaml');
      return stringify(result, { lineWidth: 0 });
    }
    case 'html':
      return (await import('./html-report.js')).renderHtml(result);
    default:
      return (await import('./text-report.js')).renderText(result);
  }
}
