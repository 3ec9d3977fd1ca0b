/** The shapes of a repository result's `era_check`, `lines` and `survival` (docs/scoring.md, docs/lines.md). */

/**
 * The scored commits authored before `before` (2021-06-29, GitHub Copilot's first public preview:
 * no coding assistant wrote commits before it), automation and explicitly attributed ones left out.
 * Scored as any other, never zeroed: a reading of the noise, not a filter.
 */
export interface EraCheck {
  before: string;
  commits: number;
  flagged: number;
  /** `flagged / commits`. */
  rate: number;
  /** Their mean probability: compare `ai_share` with this, since both are means of probabilities. */
  mean_probability: number;
}

/**
 * The lines at HEAD. `explicit + inferred + automation + human + outside = counted`;
 * `inferred` and `human` are expectations (probability times lines), so fractional.
 * @since 1.9
 */
export interface LinesAtHead {
  /** The commit whose tree was counted (full hash). */
  head: string;
  /** Lines in text files that are not excluded. */
  counted: number;
  /** Lines in excluded text files (`exclude_files`, linguist-vendored/-generated, `-diff`). */
  excluded: number;
  binary_files: number;
  /** Lines whose commit is explicitly attributed to an assistant. */
  explicit: number;
  /** Over the other scored commits: the commit's probability times its lines. */
  inferred: number;
  /** Lines whose commit an automation account made. */
  automation: number;
  human: number;
  /** Lines whose commit lies outside the analysed range (`--since`, a request's base, a shallow boundary). */
  outside: number;
  /** `(explicit + inferred) / (counted - automation - outside)`; null when that is 0. */
  share: number | null;
  /** Explicit lines per assistant (a commit naming two counts for both). */
  assistants: Record<string, number>;
  /** Top-level folders ('.' for the top level's own files), most lines first, at most 20. */
  directories: { path: string; counted: number; share: number | null }[];
  /** The 20 authors with most lines in range. */
  authors: { name: string; email: string; lines: number; share: number | null }[];
  /** Line-level records (git-ai notes, Agent Trace) that named lines exactly; absent when the repository has none. */
  records?: LineRecordsSummary;
  /**
   * The false-alarm reading of `share`: the lines at HEAD written by scored commits from before
   * assistants existed, and how many of them inference calls assistant-made. `null` when fewer than
   * 20 such commits wrote lines at HEAD; absent when only part of the history was read (a range, `--since`).
   * @since 1.16
   */
  era_check?: LinesEraCheck | null;
}

/**
 * Lines at HEAD whose commit was authored before `before` (2021-06-29): automation, explicitly
 * attributed commits and lines from outside the analysed range left out, as in `EraCheck`.
 * @since 1.16
 */
export interface LinesEraCheck {
  before: string;
  /** The commits that wrote them. */
  commits: number;
  lines: number;
  /** Each commit's probability times its lines, summed. */
  inferred: number;
  /** `inferred / lines`: compare `share` with this. */
  share: number;
}

export interface LineRecordsSummary {
  /** Analysed commits with a readable Git AI Standard v3 authorship log (refs/notes/ai). */
  git_ai: number;
  /** Agent Trace records of analysed commits (refs/notes/agent-trace, `.agent-trace/*.jsonl`). */
  agent_trace: number;
  /** Lines at HEAD those records name as an assistant's (part of `explicit`). */
  marked: number;
  /** Records skipped as malformed, and the first reasons (at most 20). */
  skipped: number;
  skipped_reasons: string[];
}

export interface SurvivalSide {
  /** Lines the commits added (counted files only), assistant ones weighted by probability. */
  added: number;
  /** Of those, still at HEAD. */
  surviving: number;
  /** Of those, deleted or rewritten by a later commit within 14 days of the adding commit's author date. */
  reworked_14d: number;
}

export interface Survival {
  assistant: SurvivalSide;
  human: SurvivalSide;
  /** By the adding commit's author month (UTC), oldest first. */
  months: {
    month: string;
    assistant_added: number;
    assistant_surviving: number;
    assistant_reworked_14d: number;
    human_added: number;
    human_surviving: number;
    human_reworked_14d: number;
  }[];
}
