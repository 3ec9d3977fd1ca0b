import { itemAt } from '@cadence-detect/errors';
import {
  ERA_CHECK_BEFORE,
  ERA_CHECK_MIN_COMMITS,
  type EraCheck,
  isMeasurableCommit,
  severityFromScore,
  type AssessmentBands,
  type AuthorBreakdown,
  type AuthorMonths,
  type MonthlyShare,
  type CommitRecord,
  type Detection,
  type Suspicion,
  type Thresholds,
  type TimelineBucket,
} from '@cadence-detect/plugin-sdk';
import { authorIdentities } from './author-identities.js';
import { AuthorTally, type AuthorCommit } from './author-tally.js';
import { logit, sigmoid } from './log-odds.js';
import { MonthlySeries } from './monthly-series.js';
import { round, type StrategyReport } from './strategy-outcomes.js';
import { countNamed, countVerdict, newTotals } from './verdict-totals.js';

/**
 * Repository scoring (docs/scoring.md is the reference; keep the two in step).
 *
 * Each commit gets a probability of having been made with an assistant:
 * - 1 when the history says so outright (an `explicit` finding: a trailer, an agent account, a note);
 * - else 0, never flagged and out of `ai_share`, when automation made it (an `automation` finding:
 *   dependabot, renovate, a release bot; or an author of `exclude_authors`);
 * - else the calibrated strategy's probability (the learned commit model) when one is enabled. The
 *   strategies it `covers` (velocity, timing, size) only explain it; every other strategy's finding
 *   (a third party's) moves it in log-odds: from at least the model's prior, by
 *   STRATEGY_SHIFT x weight x score, where STRATEGY_SHIFT = logit(flag_at) - logit(prior) + SHIFT_MARGIN,
 *   so one finding of score 1 at weight 1 flags its commit on its own. Where the user set thresholds
 *   of their own (`thresholdsOverridden`), the covered strategies' findings flag from the `medium`
 *   band too, and the commit takes the higher of the two;
 * - else (no calibrated strategy) the heuristic combination 1 - prod(1 - confidence) of its findings.
 *
 * `ai_share` is the mean of those probabilities over scored commits (measurable commits that change
 * counted lines, and every explicitly attributed commit; never automation); `overall_score` starts
 * from it, and the assessment follows from the bands (configuration `assessment.*`).
 */

/** The highest confidence an inferred commit gets: 1.00 is for explicit attribution only. */
export const MAX_INFERRED_CONFIDENCE = 0.99;

/** Without a calibrated strategy, a commit at or above this heuristic confidence is a suspicion. */
export const HEURISTIC_FLAG = 0.25;
/** Where a user's own thresholds flag a commit the model does not: the `medium` band. */
const OVERRIDE_FLAG = 0.4;
/** How far past `flag_at` one finding of score 1 at weight 1 lands, in log-odds. */
export const SHIFT_MARGIN = 0.1;

export interface CommitJudgement {
  readonly commit: CommitRecord;
  /** The commit's probability (see above). */
  readonly confidence: number;
  readonly flagged: boolean;
  readonly explicit: boolean;
  /** Made by automation (see above): never flagged, not scored. */
  readonly automation: boolean;
  readonly assistants: readonly string[];
  readonly detections: readonly Detection[];
}

export interface ScoringPolicy {
  readonly bands: AssessmentBands;
  readonly thresholds: Thresholds;
  /** The effective thresholds differ from the defaults: heuristic findings can flag on their own. */
  readonly thresholdsOverridden: boolean;
  /** Every author in `authors` (the organization view), not only the 50 with the most commits. */
  readonly allAuthors?: boolean;
  /** Configuration `exclude_authors`: their commits count as automation. */
  readonly isExcludedAuthor?: (commit: CommitRecord) => boolean;
}

/** How one commit counts in the shares: what the line counts weigh its lines by. */
export interface CommitWeight {
  readonly confidence: number;
  readonly explicit: boolean;
  readonly automation: boolean;
  /** In `ai_share`'s denominator (scored, or explicit). */
  readonly counts: boolean;
  readonly assistants: readonly string[];
}

export interface RepositoryScores {
  readonly judged: readonly CommitJudgement[];
  /** Every commit's weight, by full hash. */
  readonly weights: ReadonlyMap<string, CommitWeight>;
  readonly aiShare: number;
  readonly scoredCommits: number;
  readonly attributedCommits: number;
  readonly automationCommits: number;
  /** The history's commits from before assistants existed (EraCheck); null below ERA_CHECK_MIN_COMMITS of them. */
  readonly eraCheck: EraCheck | null;
  readonly assistants: Record<string, number>;
  readonly authors: AuthorBreakdown[];
  readonly months: MonthlyShare[];
  readonly authorMonths: AuthorMonths[];
  /** Each commit's author as one person (author-identities.ts: .mailmap, then shared e-mails, names and GitHub logins). */
  readonly identity: (commit: CommitRecord) => string;
  /** Commits that change no line, and per assistant those attributed explicitly. */
  readonly emptyCommits: { readonly commits: number; readonly assistants: Record<string, number> };
  readonly scoring: 'model' | 'heuristic';
  readonly flagAt: number | null;
}

/** A commit that changes no line (no file, or binary files alone), and is no merge. */
export function isEmptyCommit(commit: CommitRecord): boolean {
  return (
    !commit.isMerge && commit.additions + commit.deletions + commit.excludedAdditions + commit.excludedDeletions === 0
  );
}

export function isScoredCommit(commit: CommitRecord): boolean {
  return isMeasurableCommit(commit) && commit.additions + commit.deletions > 0;
}

export function scoreRepository(
  commits: readonly CommitRecord[],
  reports: readonly StrategyReport[],
  policy: ScoringPolicy,
): RepositoryScores {
  const byHash = groupByCommit(reports, new Set(commits.map((c) => c.hash)));
  const rules = scoringRules(reports, policy);
  const judged: CommitJudgement[] = [];
  const commitWeights = new Map<string, CommitWeight>();
  const authors = new AuthorTally();
  const totals = newTotals();
  const identity = authorIdentities(commits);
  const series = new MonthlySeries(identity);
  for (const commit of commits) {
    const found = byHash.get(commit.hash) ?? [];
    // An empty commit is counted apart, with who made it, and judged no further.
    const isEmpty = isEmptyCommit(commit);
    if (isEmpty) {
      totals.empty.commits++;
      countNamed(totals.empty.assistants, namedAssistants(found));
    }
    const detections = isEmpty ? [] : found;
    const verdict = judgeCommit(commit, detections, rules);
    const { confidence, flagged, explicit, automation, named } = verdict;
    const counts = !automation && (explicit || isScoredCommit(commit));
    countVerdict(totals, commit, verdict, counts);
    authors.add(identity(commit), commit, verdict, counts);
    series.add({ commit, counts, explicit, confidence, assistants: named });
    commitWeights.set(commit.hash, { confidence, explicit, automation, counts, assistants: named });
    if (detections.length > 0 || flagged)
      judged.push({ commit, confidence, flagged, explicit, automation, assistants: named, detections });
  }
  const { sum, scored, attributed, automationCommits, era, assistants, empty } = totals;
  return {
    judged,
    weights: commitWeights,
    identity,
    aiShare: scored > 0 ? round(sum / scored) : 0,
    scoredCommits: scored,
    attributedCommits: attributed,
    emptyCommits: empty,
    automationCommits,
    eraCheck: eraCheckOf(era),
    assistants,
    authors: authors.breakdown(policy.allAuthors === true),
    months: series.series(),
    authorMonths: series.authorSeries(),
    scoring: rules.calibration ? 'model' : 'heuristic',
    flagAt: rules.calibration ? rules.calibration.flagAt : null,
  };
}

/** What judging a commit needs of the strategies' reports, worked out once per repository. */
interface ScoringRules {
  readonly calibration: StrategyReport['calibration'];
  /** What the model's probability already includes: itself and the strategies it covers. */
  readonly covered: ReadonlySet<string>;
  readonly calibratedNames: ReadonlySet<string>;
  readonly weights: ReadonlyMap<string, number>;
  readonly shiftPerPoint: number;
  readonly policy: ScoringPolicy;
}

function scoringRules(reports: readonly StrategyReport[], policy: ScoringPolicy): ScoringRules {
  const calibrated = reports.filter((r) => r.calibration !== undefined);
  const calibration = calibrated[0]?.calibration;
  return {
    calibration,
    covered: new Set(calibrated.flatMap((r) => [r.result.name, ...(r.covers ?? [])])),
    calibratedNames: new Set(calibrated.map((r) => r.result.name)),
    weights: new Map(reports.map((r) => [r.result.name, r.strategy.info.weight])),
    shiftPerPoint: calibration ? strategyShift(calibration) : 0,
    policy,
  };
}

const namedAssistants = (detections: readonly Detection[]): string[] => [
  ...new Set(detections.filter((d) => d.evidence === 'explicit').map((d) => d.assistant ?? 'unnamed assistant')),
];

/**
 * One commit's verdict: explicit (confidence 1), automation (0), else the model's probability moved
 * by the strategies it does not cover (or, without a model, the heuristic strategies' combination).
 */
function judgeCommit(commit: CommitRecord, detections: readonly Detection[], rules: ScoringRules): AuthorCommit {
  const named = namedAssistants(detections);
  const explicit = detections.some((d) => d.evidence === 'explicit');
  const automation =
    !explicit &&
    (detections.some((d) => d.evidence === 'automation') || rules.policy.isExcludedAuthor?.(commit) === true);
  if (explicit) return { confidence: 1, flagged: true, explicit, automation, named };
  if (automation) return { confidence: 0, flagged: false, explicit, automation, named };
  const heuristic =
    1 -
    detections
      .filter((d) => d.evidence === 'inferred' && !rules.calibratedNames.has(d.strategy))
      .reduce((product, d) => product * (1 - d.confidence), 1);
  let confidence: number;
  let flagged: boolean;
  const calibration = rules.calibration;
  if (calibration) {
    const shift = detections
      .filter((d) => d.evidence === 'inferred' && !rules.covered.has(d.strategy))
      .reduce((total, d) => total + rules.shiftPerPoint * (rules.weights.get(d.strategy) ?? 1) * d.score, 0);
    const modelled = calibration.probabilities.get(commit.hash) ?? 0;
    const p = shift > 0 ? sigmoid(Math.max(logit(modelled), logit(calibration.prior)) + shift) : modelled;
    const override = rules.policy.thresholdsOverridden && heuristic >= OVERRIDE_FLAG;
    confidence = override ? Math.max(p, heuristic) : p;
    flagged = p >= calibration.flagAt || override;
  } else {
    confidence = heuristic;
    flagged = heuristic >= HEURISTIC_FLAG;
  }
  // Certainty is for a history that says so: an inferred probability never reads 1.00.
  return { confidence: Math.min(round(confidence), MAX_INFERRED_CONFIDENCE), flagged, explicit, automation, named };
}

function eraCheckOf(era: { commits: number; flagged: number; sum: number }): EraCheck | null {
  if (era.commits < ERA_CHECK_MIN_COMMITS) return null;
  return {
    before: ERA_CHECK_BEFORE,
    commits: era.commits,
    flagged: era.flagged,
    rate: round(era.flagged / era.commits),
    mean_probability: round(era.sum / era.commits),
  };
}

/**
 * Log-odds per weighted point of a strategy the model does not cover: one finding of score 1 at
 * weight 1 takes a commit from the model's prior to SHIFT_MARGIN past `flag_at` (with the shipped
 * model, prior 0.05 and flag_at 0.46: 2.88).
 */
export function strategyShift(calibration: { readonly flagAt: number; readonly prior: number }): number {
  return Math.max(0, logit(calibration.flagAt) - logit(calibration.prior)) + SHIFT_MARGIN;
}

function groupByCommit(reports: readonly StrategyReport[], known: ReadonlySet<string>): Map<string, Detection[]> {
  const byHash = new Map<string, Detection[]>();
  for (const report of reports) {
    for (const detection of report.detections) {
      const hash = detection.commit;
      if (hash === undefined || !known.has(hash)) continue;
      const list = byHash.get(hash);
      if (list) list.push(detection);
      else byHash.set(hash, [detection]);
    }
  }
  return byHash;
}

/**
 * One suspicion per flagged commit. With `headPaths` (the files of the analysed head) each also
 * names which of its files remain there (`files_at_head`).
 */
export function toSuspicions(judged: readonly CommitJudgement[], headPaths?: ReadonlySet<string>): Suspicion[] {
  return judged
    .filter((j) => j.flagged)
    .map((j) => {
      const strategies = [...new Set(j.detections.map((d) => d.strategy))];
      const what = j.explicit
        ? `attributed to ${j.assistants.join(', ')}`
        : `flagged by ${strategies.length === 1 ? strategies[0] : `${strategies.slice(0, -1).join(', ')} and ${strategies.at(-1)}`}`;
      const suspicion: Suspicion = {
        commit_hash: j.commit.shortHash,
        commit: j.commit.hash,
        message: `${what}: ${j.commit.subject}`,
        severity: severityFromScore(j.confidence),
        confidence: j.confidence,
        reasons: j.detections.map((d) => `${d.strategy} (${d.evidence}): ${d.message}`),
        evidence: j.explicit ? 'explicit' : 'inferred',
        author: j.commit.authorName,
        date: new Date(j.commit.authorTime * 1000).toISOString(),
      };
      if (j.explicit) suspicion.assistants = [...j.assistants];
      const files = topFiles(j.commit);
      if (files.length > 0) suspicion.files = files;
      if (headPaths) suspicion.files_at_head = filesAtHead(j.commit, headPaths);
      return suspicion;
    });
}

/** The commit's most-changed counted files (of those the record keeps), most lines first. */
function topFiles(commit: CommitRecord): string[] {
  return commit.files
    .filter((f) => !f.excluded)
    .sort((a, b) => b.additions + b.deletions - (a.additions + a.deletions))
    .slice(0, 3)
    .map((f) => f.path);
}

/** The commit's files that exist in `headPaths`: counted files first, then excluded ones, most lines first (at most 3). */
function filesAtHead(commit: CommitRecord, headPaths: ReadonlySet<string>): string[] {
  return commit.files
    .filter((f) => headPaths.has(f.path))
    .sort((a, b) => Number(a.excluded) - Number(b.excluded) || b.additions + b.deletions - (a.additions + a.deletions))
    .slice(0, 3)
    .map((f) => f.path);
}

const MAX_BUCKETS = 200;

/** Commits over time in at most 200 buckets, flagged ones counted apart (the HTML report's chart). */
export function buildTimeline(commits: readonly CommitRecord[], flaggedHashes: ReadonlySet<string>): TimelineBucket[] {
  if (commits.length === 0) return [];
  let first = Infinity;
  let last = -Infinity;
  for (const c of commits) {
    first = Math.min(first, c.authorTime);
    last = Math.max(last, c.authorTime);
  }
  const span = Math.max(last - first, 1);
  const count = Math.min(MAX_BUCKETS, commits.length);
  const width = Math.max(1, Math.ceil((span + 1) / count));
  const buckets: TimelineBucket[] = Array.from({ length: count }, (_, i) => ({
    t: first + i * width,
    commits: 0,
    flagged: 0,
  }));
  for (const c of commits) {
    const index = Math.min(count - 1, Math.floor((c.authorTime - first) / width));
    const bucket = itemAt(buckets, index);
    bucket.commits++;
    if (flaggedHashes.has(c.hash)) bucket.flagged++;
  }
  return buckets.filter((b) => b.commits > 0);
}
