import { Document, Scalar, visit } from './vendor/yaml.js';
import type { AnalysisResult } from '@cadence-detect/plugin-sdk';
import { escapeBidi, hasBidi, withContext, type ReportContext } from './render.js';

/**
 * The YAML report. A string holding a bidirectional control (an author name, a commit subject)
 * is written double-quoted with the control escaped (`\u202e`): YAML reads it back as the same
 * character, and a terminal or an editor showing the file is not turned around by it.
 */
export function yamlReport(result: AnalysisResult, context?: ReportContext): string {
  const document = new Document(withContext(result, context));
  visit(document, {
    Scalar(_key, node) {
      if (typeof node.value === 'string' && hasBidi(node.value)) node.type = Scalar.QUOTE_DOUBLE;
    },
  });
  return escapeBidi(document.toString({ lineWidth: 0 }));
}
