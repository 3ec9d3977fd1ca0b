import type { AnalysisResult, Detection, Severity, StrategyResult } from '@cadence-detect/plugin-sdk';
import { displayLine } from './display-text.js';
import type { ReportContext } from './render.js';

/**
 * SARIF 2.1.0 (OASIS), for GitHub code scanning and other SARIF consumers: one run, one rule per
 * strategy that ran, one result per detection. A repository finding is located at the files its
 * commit changed most (the suspicion's `files`), or at the repository root; the full commit hash,
 * the evidence and the assistant go in the result's properties. A website finding is located at
 * the page's final URL.
 */
const SARIF_SCHEMA = 'https://json.schemastore.org/sarif-2.1.0.json';
const INFORMATION_URI = 'https://github.com/cadence/cadence';
const LEVEL: Record<Severity, 'error' | 'warning' | 'note'> = { high: 'error', medium: 'warning', low: 'note' };
const ROOT = '.';

export function renderSarif(result: AnalysisResult, context?: ReportContext): string {
  const rules = result.strategy_results.map(ruleOf);
  const ruleIndex = new Map(rules.map((rule, index) => [rule.id, index]));
  const filesOf = new Map(result.source_type === 'git' ? result.suspicions.map((s) => [s.commit, s.files ?? []]) : []);
  const results = result.detections.map((detection) => ({
    ruleId: detection.strategy,
    ...(ruleIndex.has(detection.strategy) ? { ruleIndex: ruleIndex.get(detection.strategy) } : {}),
    level: LEVEL[detection.severity],
    message: { text: displayLine(detection.message) || detection.strategy },
    locations: locationsOf(result, detection, filesOf),
    properties: {
      confidence: detection.confidence,
      evidence: detection.evidence,
      ...(detection.commit !== undefined ? { commit: detection.commit } : {}),
      ...(detection.assistant !== undefined ? { assistant: displayLine(detection.assistant) } : {}),
      ...(detection.element !== undefined ? { element: displayLine(detection.element) } : {}),
    },
  }));
  const log = {
    $schema: SARIF_SCHEMA,
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'Cadence',
            informationUri: INFORMATION_URI,
            ...(context ? { version: context.version } : {}),
            rules,
          },
        },
        ...provenance(result),
        results,
        properties: {
          assessment: result.assessment,
          overall_score: result.overall_score,
          ...(result.source_type === 'git' ? { ai_share: result.ai_share, attributed_commits: result.attributed_commits } : {}),
          ...(context ? { generated_at: context.generated_at } : {}),
        },
      },
    ],
  };
  return `${JSON.stringify(log, null, 2)}\n`;
}

function ruleOf(strategy: StrategyResult) {
  return {
    id: strategy.name,
    name: strategy.name.replace(/(^|-)(\w)/g, (_, __, c: string) => c.toUpperCase()),
    shortDescription: { text: `Cadence ${strategy.category} strategy "${strategy.name}"` },
    help: { text: `A finding of Cadence's ${strategy.name} strategy: an indicator that the commit or passage was made with an AI assistant, not proof. See docs/scoring.md.` },
    properties: { category: strategy.category },
  };
}

function locationsOf(result: AnalysisResult, detection: Detection, filesOf: ReadonlyMap<string, readonly string[]>) {
  if (result.source_type === 'web') {
    return [{ physicalLocation: { artifactLocation: { uri: result.final_url } } }];
  }
  const files = (detection.commit !== undefined ? filesOf.get(detection.commit) : undefined) ?? [];
  const uris = files.length > 0 ? files.map(encodeUri) : [ROOT];
  return uris.map((uri) => ({ physicalLocation: { artifactLocation: { uri, uriBaseId: '%SRCROOT%' } } }));
}

/** The repository and revision, when the source is a URL (a local path is no URI to publish). */
function provenance(result: AnalysisResult) {
  if (result.source_type !== 'git') return {};
  const url = /^(?:https?|ssh|git):\/\//i.test(result.source_id) ? result.source_id : null;
  if (!url) return {};
  return {
    versionControlProvenance: [
      { repositoryUri: url, revisionId: result.head_commit, ...(result.branch ? { branch: result.branch } : {}) },
    ],
  };
}

/** A repository path as a relative URI reference: each segment percent-encoded, slashes kept. */
function encodeUri(path: string): string {
  return path.split('/').map(encodeURIComponent).join('/');
}
