import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import {
  sourceKindOf,
  type AnalysisResult,
  type Detection,
  type RepositoryResult,
  type StrategyResult,
  type Suspicion,
  type WebsiteResult,
  failsPolicy,
} from '@cadence-detect/plugin-sdk';
import { displayLine } from './display-text.js';
import type { ReportContext } from './render.js';

/**
 * SARIF 2.1.0 (OASIS) shaped for GitHub code scanning (docs/sarif.md):
 *
 * - a repository run has ONE result per flagged commit (a suspicion), never one per strategy
 *   finding: the findings are the result's reasons, in its message and properties;
 * - `level`: `note` for an explicitly attributed commit (a disclosure), `warning` for an inferred
 *   one, and `error` for every result only when a verdict policy (`report.fail_on`, `--fail-on`)
 *   is set and the verdict reaches it, so a clean repository has no `error`;
 * - `partialFingerprints` from the commit hash and the rule id, so re-runs match their alerts;
 * - the location is the commit's most-changed file that still exists at the analysed head, line 1.
 *   Code scanning requires a location to show a result, so a commit none of whose files remains
 *   gets no result: the run's properties count it (`flagged_without_location`);
 * - within GitHub's limits: at most MAX_RESULTS results and MAX_GZIP_BYTES gzipped, said in the
 *   run's properties (`results_capped`) when anything is left out.
 *
 * A website run keeps one result per detection, located at the page's final URL (for SARIF
 * consumers other than code scanning, which takes only paths in a repository).
 */
const SARIF_SCHEMA = 'https://json.schemastore.org/sarif-2.1.0.json';
/** No project homepage is named in the repository's manifests: this is the documented placeholder. */
export const INFORMATION_URI = 'https://github.com/cadence-detect/cadence';
/** Code scanning takes up to 25,000 results a run but shows only the top 5,000: the rest would be lost anyway. */
export const MAX_RESULTS = 5_000;
/** Code scanning refuses a SARIF file above 10 MB gzipped; this leaves room for the upload's own framing. */
export const MAX_GZIP_BYTES = 9_500_000;
/** The fingerprints' names: a new version if what one is computed from ever changes. */
export const FINGERPRINT = 'cadence/commit/v1';
const PAGE_FINGERPRINT = 'cadence/page-finding/v1';
export const ATTRIBUTED_RULE = 'cadence/attributed-commit';
export const INFERRED_RULE = 'cadence/inferred-commit';
/** How many flagged commits without a location the run's properties name (all are counted). */
const UNLOCATED_LISTED = 20;
const REASONS_KEPT = 10;
const REASON_CHARS = 500;
const MESSAGE_CHARS = 2_000;

type Level = 'error' | 'warning' | 'note';

export interface SarifLimits {
  /** MAX_RESULTS unless given. */
  readonly maxResults?: number;
  /** MAX_GZIP_BYTES unless given. */
  readonly maxGzipBytes?: number;
}

export function renderSarif(result: AnalysisResult, context?: ReportContext, limits: SarifLimits = {}): string {
  const failOn = context?.fail_on ?? 'never';
  const failing = failsPolicy(result.assessment, failOn);
  const run = result.source_type === 'git' ? repositoryRun(result, failing) : websiteRun(result, failing);
  const policy = failOn === 'never' ? {} : { fail_on: failOn, verdict_reaches_fail_on: failing };
  const properties = {
    assessment: result.assessment,
    overall_score: result.overall_score,
    ...(result.source_type === 'git'
      ? {
          ai_share: result.ai_share,
          flagged_commits: result.suspicions.length,
          attributed_commits: result.attributed_commits,
        }
      : {}),
    ...policy,
    ...run.properties,
    ...(context ? { generated_at: context.generated_at } : {}),
  };
  const log = (results: readonly unknown[], capped: object) => ({
    $schema: SARIF_SCHEMA,
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'Cadence',
            informationUri: INFORMATION_URI,
            ...(context ? { version: context.version } : {}),
            rules: run.rules,
          },
        },
        automationDetails: { id: `cadence/${sourceKindOf(result)}/` },
        ...provenance(result),
        results,
        properties: { ...properties, ...capped },
      },
    ],
  });
  return capped(run.results, limits, log);
}

interface PlannedResult {
  readonly sarif: unknown;
  /** Higher is kept first when the run is capped. */
  readonly rank: number;
}

interface PlannedRun {
  readonly rules: unknown[];
  readonly results: PlannedResult[];
  readonly properties: Record<string, unknown>;
}

/**
 * The log with as many results as the limits allow: the highest ranked kept, in their original
 * order; `results_capped` says how many were left out and why.
 */
function capped(
  planned: readonly PlannedResult[],
  limits: SarifLimits,
  log: (results: readonly unknown[], capped: object) => unknown,
): string {
  const maxResults = limits.maxResults ?? MAX_RESULTS;
  const maxGzip = limits.maxGzipBytes ?? MAX_GZIP_BYTES;
  const order = planned
    .map((p, index) => ({ rank: p.rank, index }))
    .sort((a, b) => b.rank - a.rank || b.index - a.index);
  let keep = Math.min(planned.length, maxResults);
  for (;;) {
    const kept = new Set(order.slice(0, keep).map((o) => o.index));
    const results = planned.filter((_, index) => kept.has(index)).map((p) => p.sarif);
    const omitted = planned.length - keep;
    const reason = keep < Math.min(planned.length, maxResults) ? 'gzip_size' : 'result_count';
    const text = `${JSON.stringify(log(results, omitted > 0 ? { results_capped: { omitted, reason, max_results: maxResults, max_gzip_bytes: maxGzip } } : {}), null, 2)}\n`;
    const size = keep === 0 ? 0 : gzipSync(text).length;
    if (size <= maxGzip) return text;
    // Over the size: keep proportionally fewer (at least one fewer) and measure again.
    keep = Math.max(0, Math.min(keep - 1, Math.floor(((keep * maxGzip) / size) * 0.95)));
  }
}

function repositoryRun(result: RepositoryResult, failing: boolean): PlannedRun {
  const rules = [attributedRule(), inferredRule()];
  const checked = result.suspicions.every((s) => s.files_at_head !== undefined);
  const results: PlannedResult[] = [];
  const unlocated: string[] = [];
  for (const suspicion of result.suspicions) {
    const file = locationOf(suspicion);
    if (file === null) {
      unlocated.push(suspicion.commit);
      continue;
    }
    const explicit = suspicion.evidence === 'explicit';
    const ruleId = explicit ? ATTRIBUTED_RULE : INFERRED_RULE;
    const level: Level = failing ? 'error' : explicit ? 'note' : 'warning';
    results.push({
      rank: (level === 'note' ? 0 : 2) + suspicion.confidence,
      sarif: {
        ruleId,
        ruleIndex: explicit ? 0 : 1,
        level,
        message: { text: messageOf(suspicion, result) },
        locations: [
          {
            physicalLocation: {
              artifactLocation: { uri: encodeUri(file), uriBaseId: '%SRCROOT%' },
              region: { startLine: 1 },
            },
          },
        ],
        partialFingerprints: fingerprintsOf(FINGERPRINT, ruleId, suspicion.commit),
        properties: {
          commit: suspicion.commit,
          commit_hash: suspicion.commit_hash,
          evidence: suspicion.evidence,
          confidence: suspicion.confidence,
          severity: suspicion.severity,
          ...(suspicion.assistants ? { assistants: suspicion.assistants.map((a) => displayLine(a)) } : {}),
          ...(suspicion.author !== undefined ? { author: displayLine(suspicion.author) } : {}),
          ...(suspicion.date !== undefined ? { date: suspicion.date } : {}),
          reasons: suspicion.reasons.slice(0, REASONS_KEPT).map((r) => cut(displayLine(r), REASON_CHARS)),
          ...(suspicion.files ? { files: suspicion.files.map((f) => displayLine(f)) } : {}),
        },
      },
    });
  }
  return {
    rules,
    results,
    properties: {
      // Whether locations were checked against the analysed head (a result made before 1.5 was not).
      locations_checked_at_head: checked,
      flagged_without_location: { commits: unlocated.length, listed: unlocated.slice(0, UNLOCATED_LISTED) },
    },
  };
}

/** The commit's most-changed file that remains at the head; without that record, its most-changed file. */
function locationOf(suspicion: Suspicion): string | null {
  const files = suspicion.files_at_head ?? suspicion.files ?? [];
  return files[0] ?? null;
}

/** `Commit abc1234 is attributed to Claude Code: Add parser. Reasons: …`; its first sentence is the alert's title. */
function messageOf(suspicion: Suspicion, result: RepositoryResult): string {
  const subject = displayLine(suspicion.message.replace(/^[^:]*: /, ''));
  const head =
    suspicion.evidence === 'explicit'
      ? `Commit ${suspicion.commit_hash} is attributed to ${(suspicion.assistants ?? []).map((a) => displayLine(a)).join(', ') || 'an AI assistant'}`
      : `Commit ${suspicion.commit_hash} looks made with an AI assistant (probability ${suspicion.confidence.toFixed(2)}${result.flag_at !== null ? `, flagged from ${result.flag_at.toFixed(2)}` : ''})`;
  const reasons = suspicion.reasons.slice(0, REASONS_KEPT).map((r) => cut(displayLine(r), REASON_CHARS));
  return cut(
    `${head}: ${subject}${/[.!?]$/.test(subject) ? '' : '.'}${reasons.length > 0 ? ` Reasons: ${reasons.join('; ')}.` : ''}`,
    MESSAGE_CHARS,
  );
}

/**
 * `cadence/commit/v1` names the commit and rule outright; `primaryLocationLineHash`, the one
 * fingerprint code scanning reads, is derived from the same two, so two flagged commits located at
 * the same file stay two alerts and a re-run matches each again.
 */
function fingerprintsOf(name: string, ruleId: string, identity: string): Record<string, string> {
  const digest = createHash('sha256').update(`${ruleId}\n${identity}`).digest('hex');
  return {
    [name]: name === FINGERPRINT ? `${identity}:${ruleId}` : digest,
    primaryLocationLineHash: `${digest.slice(0, 16)}:1`,
  };
}

const DOCS = 'docs/scoring.md and docs/sarif.md in the Cadence repository';

function attributedRule() {
  const text =
    'The commit says it was made with an AI assistant: a Co-Authored-By trailer, a footer, an agent account, a Git AI note. ' +
    'This is a disclosure, not a defect: nothing needs fixing. It is reported so that reviewers know where assistants worked. ' +
    `Cadence counts such a commit fully in the repository's assistant share. See ${DOCS}.`;
  return {
    id: ATTRIBUTED_RULE,
    name: 'AttributedCommit',
    shortDescription: { text: 'A commit attributed to an AI assistant by its own history' },
    fullDescription: {
      text: 'The commit names an AI assistant outright (a trailer, a footer, an agent account or a Git AI note): explicit attribution, not an inference.',
    },
    defaultConfiguration: { level: 'note' },
    help: {
      text,
      markdown:
        '**Explicitly attributed commit.** The commit says it was made with an AI assistant: a `Co-Authored-By` trailer, a footer, an agent account or a Git AI note.\n\n' +
        "This is a disclosure, not a defect: nothing needs fixing. It is reported so that reviewers know where assistants worked, and it counts fully in the repository's assistant share.\n\n" +
        `The result is located at the commit's most-changed file that still exists (line 1: findings are about commits, not lines). See ${DOCS}.`,
    },
    properties: { tags: ['ai-attribution', 'commit'], 'problem.severity': 'recommendation' },
  };
}

function inferredRule() {
  const text =
    "The commit looks made with an AI assistant, from how it looks once every attribution is removed: its size and pace against the author's own baseline, its place in a working session, its files and its message. " +
    'It is an indicator, not proof: review the commit (its hash is in the result) and dismiss the alert if it was written by hand. ' +
    `The reasons name each strategy's finding with the measured value and the threshold. See ${DOCS}.`;
  return {
    id: INFERRED_RULE,
    name: 'InferredCommit',
    shortDescription: { text: 'A commit that looks made with an AI assistant' },
    fullDescription: {
      text: "Cadence's calibrated commit model (or, without it, its heuristic strategies) flagged the commit as probably made with an AI assistant. No attribution says so.",
    },
    defaultConfiguration: { level: 'warning' },
    help: {
      text,
      markdown:
        "**Inferred: the commit looks made with an AI assistant.** Cadence judges a commit with every attribution removed: its size and pace against the author's own baseline, its place in a working session, its files and the shape of its message.\n\n" +
        "It is an indicator, not proof. Review the commit (the full hash is in the result's properties) and dismiss the alert if it was written by hand. " +
        "The reasons name each strategy's finding with the measured value and the threshold.\n\n" +
        `The result is located at the commit's most-changed file that still exists (line 1: findings are about commits, not lines). See ${DOCS}.`,
    },
    properties: { tags: ['ai-inferred', 'commit'], 'problem.severity': 'warning' },
  };
}

function websiteRun(result: WebsiteResult, failing: boolean): PlannedRun {
  // A detection with a messageId has a rule of its own, `<strategy>/<messageId>`,
  // as ESLint's messages do: dismissing one kind of finding leaves the strategy's others.
  const keyed = [
    ...new Map(result.detections.filter((d) => d.messageId !== undefined).map((d) => [ruleIdOf(d), d])).values(),
  ];
  const categories = new Map(result.strategy_results.map((s) => [s.name, s]));
  const rules = [
    ...result.strategy_results.map(strategyRule),
    ...keyed.map((d) => messageRule(d, categories.get(d.strategy))),
  ];
  const ruleIndex = new Map(rules.map((rule, index) => [rule.id, index]));
  const results = result.detections.map((detection: Detection) => ({
    rank: detection.confidence,
    sarif: {
      ruleId: ruleIdOf(detection),
      ...(ruleIndex.has(ruleIdOf(detection)) ? { ruleIndex: ruleIndex.get(ruleIdOf(detection)) } : {}),
      level: failing ? 'error' : 'warning',
      message: { text: cut(displayLine(detection.message) || detection.strategy, MESSAGE_CHARS) },
      locations: [{ physicalLocation: { artifactLocation: { uri: result.final_url } } }],
      partialFingerprints: fingerprintsOf(
        PAGE_FINGERPRINT,
        ruleIdOf(detection),
        `${result.final_url}\n${detection.element ?? ''}\n${detection.message}`,
      ),
      properties: {
        confidence: detection.confidence,
        evidence: detection.evidence,
        ...(detection.element !== undefined ? { element: displayLine(detection.element) } : {}),
      },
    },
  }));
  return { rules, results, properties: {} };
}

function ruleIdOf(detection: Detection): string {
  return detection.messageId === undefined ? detection.strategy : `${detection.strategy}/${detection.messageId}`;
}

/** The rule of one message of a strategy: its id, and the strategy's rule's words. */
function messageRule(detection: Detection, strategy: StrategyResult | undefined) {
  const base = strategyRule(
    strategy ?? {
      name: detection.strategy,
      category: detection.category,
      detected: true,
      detections: 0,
      score: 0,
      duration_ms: 0,
      error: null,
    },
  );
  return {
    ...base,
    id: ruleIdOf(detection),
    name: `${base.name}${(detection.messageId ?? '').replace(/^(\w)/, (c) => c.toUpperCase())}`,
    properties: { ...base.properties, messageId: detection.messageId },
  };
}

function strategyRule(strategy: StrategyResult) {
  const text = `A finding of Cadence's ${strategy.name} strategy (${strategy.category}): an indicator that the page's text was made with an AI assistant, not proof. See docs/website-analysis.md in the Cadence repository.`;
  return {
    id: strategy.name,
    name: strategy.name.replace(/(^|-)(\w)/g, (_, __, c: string) => c.toUpperCase()),
    shortDescription: { text: `Cadence ${strategy.category} strategy "${strategy.name}"` },
    fullDescription: { text: `Findings of the ${strategy.name} strategy on a web page's text.` },
    help: { text, markdown: text },
    properties: { category: strategy.category },
  };
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

function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  const end = /[\ud800-\udbff]/.test(text[max - 2] ?? '') ? max - 2 : max - 1;
  return `${text.slice(0, end)}…`;
}

/** A repository path as a relative URI reference: each segment percent-encoded, slashes kept. */
function encodeUri(path: string): string {
  return path.split('/').map(encodeURIComponent).join('/');
}
