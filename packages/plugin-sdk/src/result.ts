import type { ReportOutcome } from './job.js';
import type { Severity } from './source.js';
import type { Evidence } from './strategy.js';
import type { Thresholds } from './commit.js';
import type { EraCheck, LinesAtHead, Survival } from './lines-result.js';
export type {
  EraCheck,
  LinesAtHead,
  LinesEraCheck,
  LineRecordsSummary,
  Survival,
  SurvivalSide,
} from './lines-result.js';

/** One strategy hit (Form B `detections[]`, docs/scoring.md). */
export interface Detection {
  strategy: string;
  category: string;
  severity: Severity;
  /** score × the strategy's weight, adjusted by refine hooks (e.g. AI verdicts). */
  confidence: number;
  score: number;
  message: string;
  /**
   * The id of the strategy's message this detection's `message` was formatted from.
   * @since 1.11
   */
  messageId?: string;
  /** The full commit hash (repository detections): never abbreviated, so it cannot name two commits. */
  commit?: string;
  /** Element path and excerpt (website detections). */
  element?: string;
  /**
   * `explicit` (the history says so) or `inferred` (read from how the commit looks).
   * @since 1.2
   */
  evidence: Evidence;
  /** The assistant an explicit finding names. */
  assistant?: string;
  /**
   * An explicit finding on a squash commit carried by its pull or merge request's own commits
   * (read from the request's head ref): the request's number.
   * @since 1.17
   */
  via_request?: number;
  /**
   * Repository detections: whether the detection's commit is flagged (a suspicion). The
   * severity stays the strategy's own, from its score; reports show the reasons of flagged commits
   * and keep the rest apart, so a clean verdict never sits over `high` badges.
   * @since 1.7
   */
  flagged?: boolean;
}

/** One strategy run (Form B `strategy_results[]`). */
export interface StrategyResult {
  name: string;
  category: string;
  detected: boolean;
  /** How many detections it made; the detections themselves are in `detections[]`. */
  detections: number;
  score: number;
  duration_ms: number;
  error: string | null;
}

/** Form A suspicion: one per suspicious commit. */
export interface Suspicion {
  /** Abbreviated for display, and unique in the analyzed history (lengthened past 7 characters where needed, as git does). */
  commit_hash: string;
  /** The full hash: what the suspicion is about, for anything that needs to find the commit again. */
  commit: string;
  message: string;
  severity: Severity;
  confidence: number;
  reasons: string[];
  /** `explicit` when any finding on the commit is explicit attribution, else `inferred` (a flagged commit is never automation). */
  evidence: Exclude<Evidence, 'automation'>;
  /** The assistants explicit findings name, if any. */
  assistants?: string[];
  /** The files the commit changed most (counted lines, at most 3): where reports such as SARIF point. */
  files?: string[];
  /**
   * Of the files the commit changed, those that still exist at the analysed head, most
   * changed first (counted files before excluded ones, at most 3); empty when none remains. Absent
   * when the source did not record the head's files. Where SARIF locates the suspicion.
   * @since 1.5
   */
  files_at_head?: string[];
  /** The commit's author and author date (ISO 8601), for reports. */
  author?: string;
  date?: string;
}

export interface AiVerdict {
  /** The item id sent to the model: a commit's unique abbreviation, or `p1`, `p2`… for passages. */
  item: string;
  assessment: 'ai_generated' | 'human' | 'uncertain';
  confidence: number;
  reasoning: string;
  indicators: string[];
}

export interface AiReport {
  provider: string;
  model: string;
  verdicts: AiVerdict[];
  items_sent: number;
  tokens?: { input: number; output: number };
  /** Items whose verdict was missing or malformed in the model's answer. */
  malformed_answers?: number;
  /** Set when AI analysis was skipped or failed; the heuristic result stands. */
  error?: { code: string; message: string };
}

export type RepositoryAssessment = 'clean' | 'suspicious' | 'likely_ai_generated';
export type WebsiteAssessment = 'Likely AI-Generated' | 'Suspicious Activity' | 'Likely Human-Written';

interface ResultCommon {
  source_id: string;
  detections: Detection[];
  strategy_results: StrategyResult[];
  metrics: Record<string, number>;
  suspicion_score: number;
  overall_score: number;
  ai?: AiReport;
  /**
   * What reporters did with the result (forge statuses, check runs, notes), as they finish. Server jobs only.
   * @since 1.3
   */
  reports?: ReportOutcome[];
}

/** Commits over time, aggregated into at most a few hundred buckets (the HTML report's chart). */
export interface TimelineBucket {
  /** Bucket start, Unix seconds. */
  t: number;
  commits: number;
  flagged: number;
}

/** One author's part of a repository result (by author email). */
export interface AuthorBreakdown {
  author: string;
  email: string;
  commits: number;
  /** Commits with explicit attribution. */
  attributed: number;
  /** Commits flagged (a suspicion). */
  flagged: number;
  /** The author's ai_share: mean probability over their scored commits. */
  share: number;
  /**
   * Every commit of the author's is automation (a bot account, or `exclude_authors`).
   * @since 1.7
   */
  automation?: true;
  /**
   * The author's commits in `share`'s denominator (set by a 1.7 host).
   * @since 1.7
   */
  scored_commits?: number;
  /**
   * The author's attributed commits per assistant (set by a 1.7 host).
   * @since 1.7
   */
  assistants?: Record<string, number>;
}

/**
 * One calendar month of a history (docs/scoring.md, Trend).
 * @since 1.7
 */
export interface MonthlyShare {
  /** `YYYY-MM` of the author date, in UTC. */
  month: string;
  /** Every commit of the month (automation included). */
  commits: number;
  /** The month's commits in its share's denominator. */
  scored_commits: number;
  /** Explicitly attributed commits over the month's scored commits. */
  explicit_share: number;
  /** The rest of the month's `ai_share`: `explicit_share + inferred_share` is the month's share. */
  inferred_share: number;
  /** Attributed commits per assistant. */
  assistants: Record<string, number>;
}

/** One author's monthly series (the authors with the most commits, at most 20). */
export interface AuthorMonths {
  author: string;
  email: string;
  commits: number;
  months: MonthlyShare[];
}

/** Where `ai_share` turns into an assessment (configuration `assessment.*`). */
export interface AssessmentBands {
  suspicious: number;
  likely_ai_generated: number;
}

export interface RepositoryResult extends ResultCommon {
  source_type: 'git';
  repo: string;
  branch: string | null;
  head_commit: string;
  total_commits: number;
  suspicious_commits: number;
  suspicions: Suspicion[];
  assessment: RepositoryAssessment;
  timeline: TimelineBucket[];
  /**
   * Mean over scored commits of each commit's probability of being made with an assistant
   * (an explicitly attributed commit counts 1). `overall_score` starts from it.
   */
  ai_share: number;
  /** Commits that `ai_share` averages over. */
  scored_commits: number;
  /**
   * Commits by automation accounts (dependabot, renovate, release bots…) or by authors of
   * `exclude_authors`: never flagged, left out of `ai_share`, still in `total_commits`. Always set
   * by a 1.7 host (optional in the type so that results built by hand for 1.6 stay valid).
   * @since 1.7
   */
  automation_commits?: number;
  /**
   * Commits that change no line (an agent's "Initial plan", an empty commit): never scored, flagged
   * or listed, in neither `scored_commits`, `ai_share` nor `attributed_commits`; how many, and of
   * those attributed explicitly, how many per assistant. Absent when there are none.
   * @since 1.15
   */
  empty_commits?: { commits: number; assistants: Record<string, number> };
  /** Commits with explicit attribution, and per assistant. */
  attributed_commits: number;
  assistants: Record<string, number>;
  /** Per author, most commits first (at most 50). */
  authors: AuthorBreakdown[];
  /**
   * The share month by month, oldest first (set by a 1.7 host).
   * @since 1.7
   */
  months?: MonthlyShare[];
  /**
   * The same series for the 20 authors with the most commits.
   * @since 1.7
   */
  author_months?: AuthorMonths[];
  /** The bands in force when the assessment was made. */
  assessment_bands: AssessmentBands;
  /** How commit confidence was decided: `model` (a calibrated strategy) or `heuristic` (none enabled). */
  scoring: 'model' | 'heuristic';
  /** The probability from which the model flags a commit (null for heuristic scoring). */
  flag_at: number | null;
  /** The thresholds in force (configuration, then flags). */
  thresholds: Thresholds;
  /**
   * A pushed commit that squashes a pull or merge request (the forge says so): `request`
   * when the verdict is the request's original commits', `squash` when they could not be fetched
   * and the squash commit was judged as itself (with the squash discount).
   * @since 1.3
   */
  squash?: SquashJudgement;
  /**
   * Files counted as binary, without a line diff (so in no line count), because a side of them was
   * larger than `limits.max_diff_blob_mb`. Absent when there were none.
   */
  oversized_files?: OversizedFiles;
  /**
   * The false-alarm floor the history measures on itself: its commits from before assistants
   * existed. `null` when the whole history has fewer than 20 of them (1.12: it was absent when it
   * had none); absent when only part of the history was read (a range, `--since`).
   */
  era_check?: EraCheck | null;
  /** Commits whose diff names a blob the repository lacks (a damaged or partial clone), judged without those files' lines; absent when none. */
  unreadable_commits?: number;
  /** The files with a missing version (at most 20), left out of every commit's counts. */
  unreadable_files?: string[];
  /**
   * Files at the analysed head that set the project up for a coding assistant (`CLAUDE.md`,
   * `AGENTS.md`, `.cursor/rules/`, `.github/copilot-instructions.md`…), at most 50, with the
   * commit that added each and who touched it (docs/scoring.md, "Assistant setup files"). Absent
   * when the tree has none. Reported, not scored.
   * @since 1.17
   */
  assistant_setup?: AssistantSetup[];
  /**
   * The lines of the tree at the analysed commit, by who wrote them (docs/lines.md). Absent when not counted.
   * @since 1.9
   */
  lines?: LinesAtHead;
  /**
   * How the analysed commits' lines lasted (docs/lines.md). Absent when lines were not counted.
   * @since 1.9
   */
  survival?: Survival;
  /**
   * Why `lines` and `survival` are absent (too many files, `--no-lines`, a failure), when they are.
   * @since 1.9
   */
  lines_skipped?: string;
}

/** A file that sets a project up for a coding assistant. @since 1.17 */
export interface AssistantSetup {
  /** Its path at the analysed head. */
  path: string;
  /** The assistant that reads it; `AGENTS.md` for that file, which several agents read. */
  assistant: string;
  /** The commit that added it at this path (full hash) and that commit's author date (ISO 8601); null when the history does not reach it. */
  first_commit: string | null;
  first_date: string | null;
  /** Commits that touched it, and their authors (names as the history reads them, at most 10, most commits first). */
  commits: number;
  authors: string[];
}

export interface OversizedFiles {
  /** How many files of the analyzed commits. */
  files: number;
  /** The cap in force. */
  max_diff_blob_mb: number;
  /** The commits that have such files (full hashes, oldest first, at most 20). */
  commits: string[];
}

export interface SquashJudgement {
  /** The pushed squash commit (full hash): where the verdict is reported. */
  commit: string;
  /** The request's number (GitHub) or iid (GitLab). */
  request: number;
  judged_by: 'request' | 'squash';
  /** Why the request's commits were not used, when they were not. */
  reason?: string;
}

export interface WebsiteResult extends ResultCommon {
  source_type: 'web';
  url: string;
  final_url: string;
  assessment: WebsiteAssessment;
  strategies_triggered: number;
}

export type AnalysisResult = RepositoryResult | WebsiteResult;
