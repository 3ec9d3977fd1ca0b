import type { CommitRecord, RepositoryResult, WebsiteResult } from '@cadence-detect/plugin-sdk';
import { assessRepository, assessWebsite } from './assessment.js';
import { linesAtHead, survivalOf, type LineReadings } from './line-shares.js';
import type { PreparedRepository, PreparedWebsite } from './prepared-source.js';
import {
  buildTimeline,
  isEmptyCommit,
  isScoredCommit,
  scoreRepository,
  toSuspicions,
  type ScoringPolicy,
} from './repository-scoring.js';
import { round, type StrategyReport } from './strategy-outcomes.js';
import { overallWebsiteScore } from './website-scoring.js';

/** Both published forms of a repository result (docs/scoring.md), from the strategies' reports. */
export function buildRepositoryResult(
  source: PreparedRepository,
  reports: readonly StrategyReport[],
  policy: ScoringPolicy,
  lines?: LineReadings | { readonly skipped: string },
): RepositoryResult {
  const scores = scoreRepository(source.commits, reports, policy);
  const suspicions = toSuspicions(scores.judged, source.headPaths);
  const score = scores.aiShare;
  const flagged = new Set(scores.judged.filter((j) => j.flagged).map((j) => j.commit.hash));
  const emptyHashes = new Set(source.commits.filter(isEmptyCommit).map((c) => c.hash));
  return {
    source_id: source.info.url,
    source_type: 'git',
    repo: source.info.repo,
    branch: source.info.branch,
    head_commit: source.info.headCommit,
    total_commits: source.commits.length,
    suspicious_commits: suspicions.length,
    suspicions,
    overall_score: score,
    suspicion_score: score,
    assessment: assessRepository(score, policy.bands),
    ai_share: scores.aiShare,
    scored_commits: scores.scoredCommits,
    attributed_commits: scores.attributedCommits,
    ...(scores.emptyCommits.commits > 0
      ? { empty_commits: { commits: scores.emptyCommits.commits, assistants: { ...scores.emptyCommits.assistants } } }
      : {}),
    automation_commits: scores.automationCommits,
    ...(source.partialHistory ? {} : { era_check: scores.eraCheck }),
    assistants: scores.assistants,
    authors: scores.authors,
    months: scores.months,
    author_months: scores.authorMonths,
    assessment_bands: { ...policy.bands },
    scoring: scores.scoring,
    flag_at: scores.flagAt,
    thresholds: { ...policy.thresholds },
    // An empty commit's findings are not listed (nor made SARIF results): it is counted in `empty_commits`.
    detections: reports
      .flatMap((r) => r.detections)
      .filter((d) => d.commit === undefined || !emptyHashes.has(d.commit))
      .map((d) => (d.commit === undefined ? d : { ...d, flagged: flagged.has(d.commit) })),
    strategy_results: reports.map((r) => r.result),
    metrics: { ...repositoryMetrics(source, suspicions.length, scores.identity), ...strategyMetrics(reports) },
    timeline: buildTimeline(source.commits, flagged),
    ...sourceFacts(source),
    ...lineFigures(source, scores, lines),
  };
}

/** What the source read beside the history: the squash judged, files too large, unreadable ones, assistant setup files. */
function sourceFacts(source: PreparedRepository): Partial<RepositoryResult> {
  return {
    ...(source.info.squash ? { squash: { ...source.info.squash } } : {}),
    ...(source.oversizedFiles
      ? { oversized_files: { ...source.oversizedFiles, commits: [...source.oversizedFiles.commits] } }
      : {}),
    ...(source.unreadable
      ? { unreadable_commits: source.unreadable.commits, unreadable_files: [...source.unreadable.files] }
      : {}),
    ...(source.assistantSetup
      ? {
          assistant_setup: source.assistantSetup.map((file) => ({
            path: file.path,
            assistant: file.assistant,
            first_commit: file.firstCommit,
            first_date: file.firstTime === null ? null : new Date(file.firstTime * 1000).toISOString(),
            commits: file.commits,
            authors: [...file.authors],
          })),
        }
      : {}),
  };
}

/** The lines at the head and their survival, or why they were not read. */
function lineFigures(
  source: PreparedRepository,
  scores: ReturnType<typeof scoreRepository>,
  lines: LineReadings | { readonly skipped: string } | undefined,
): Partial<RepositoryResult> {
  if (!lines) return {};
  if (!('head' in lines)) return { lines_skipped: lines.skipped };
  const recordsOnlyRaise = Boolean(source.info.range);
  return {
    lines: linesAtHead(lines, source.commits, scores.weights, scores.identity, {
      recordsOnlyRaise,
      eraCheck: !source.partialHistory,
    }),
    survival: survivalOf(lines, source.commits, scores.weights, { recordsOnlyRaise }),
  };
}

function repositoryMetrics(
  source: PreparedRepository,
  suspicious: number,
  identity: (commit: CommitRecord) => string,
): Record<string, number> {
  const { commits, stats } = source;
  let additions = 0;
  let deletions = 0;
  let excludedAdditions = 0;
  let merges = 0;
  let boundary = 0;
  let scored = 0;
  const authors = new Set<string>();
  let first = Infinity;
  let last = -Infinity;
  for (const c of commits) {
    additions += c.additions;
    deletions += c.deletions;
    excludedAdditions += c.excludedAdditions;
    if (c.isMerge) merges++;
    if (c.isBoundary) boundary++;
    if (isScoredCommit(c)) scored++;
    authors.add(identity(c));
    first = Math.min(first, c.authorTime);
    last = Math.max(last, c.authorTime);
  }
  const span = commits.length > 0 ? last - first : 0;
  return {
    commits: commits.length,
    history_commits: stats.historyCommits,
    scored_commits: scored,
    merge_commits: merges,
    boundary_commits: boundary,
    suspicious_commits: suspicious,
    additions,
    deletions,
    excluded_additions: excludedAdditions,
    authors: authors.size,
    time_span_seconds: span,
    commits_per_day: span > 0 ? round((commits.length * 86400) / span) : commits.length,
    additions_per_commit: commits.length > 0 ? round(additions / commits.length, 1) : 0,
    median_additions: stats.medianAdditions,
    p90_additions: stats.p90Additions,
    median_author_interval_seconds: stats.medianAuthorIntervalSeconds ?? 0,
  };
}

function strategyMetrics(reports: readonly StrategyReport[]): Record<string, number> {
  return Object.assign({}, ...reports.map((r) => r.metrics)) as Record<string, number>;
}

export function buildWebsiteResult(source: PreparedWebsite, reports: readonly StrategyReport[]): WebsiteResult {
  const detections = reports.flatMap((r) => r.detections);
  const score = overallWebsiteScore(reports);
  const doc = source.document;
  return {
    source_id: source.info.url,
    source_type: 'web',
    url: source.info.url,
    final_url: source.info.finalUrl,
    overall_score: score,
    suspicion_score: score,
    assessment: assessWebsite(score),
    strategies_triggered: reports.filter((r) => r.result.detected).length,
    detections,
    strategy_results: reports.map((r) => r.result),
    metrics: {
      words: doc.words,
      sentences: doc.sentences.length,
      headings: doc.headings.length,
      lists: doc.lists.length,
      links: doc.links.length,
      images: doc.images.length,
      elements: doc.elements,
      bytes: source.info.bytes,
      ...strategyMetrics(reports),
    },
  };
}
