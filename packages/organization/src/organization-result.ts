import type {
  AssessmentBands,
  AuthorBreakdown,
  LinesAtHead,
  MonthlyShare,
  RepositoryAssessment,
} from '@cadence-detect/plugin-sdk';

/** One repository of a scan as the organization result shows it (docs/http-api.md, The organization result). */
export interface OrganizationRepository {
  /** `owner/name` (GitHub), the project's path (GitLab), or the URL or path as listed. */
  repository: string;
  url: string;
  /** Null when the repository failed. */
  assessment: RepositoryAssessment | null;
  ai_share: number | null;
  total_commits: number;
  scored_commits: number;
  flagged: number;
  attributed: number;
  automation_commits: number;
  /** Why the repository has no result: its operational code and message. */
  error: { code: string; message: string } | null;
  /** Where its own report is (`--reports-dir`, relative to the organization report), when written. */
  report?: string;
  /** Its lines at HEAD by who wrote them (docs/lines.md), when they were counted. */
  lines?: OrganizationLines;
}

/** Lines at HEAD, as a repository result's `lines` counts them (its totals and share); for the organization, summed over repositories. */
export type OrganizationLines = Pick<
  LinesAtHead,
  'counted' | 'explicit' | 'inferred' | 'automation' | 'human' | 'outside' | 'share' | 'era_check'
>;

/** One author across every repository, identities merged by e-mail: a repository's author entry, summed. */
export interface OrganizationAuthor extends Omit<AuthorBreakdown, 'automation' | 'scored_commits' | 'assistants'> {
  scored_commits: number;
  /** Attributed commits per assistant. */
  assistants: Record<string, number>;
  /** The repositories the author committed to. */
  repositories: string[];
}

export interface OrganizationResult {
  /** `github:acme`, `gitlab:group/sub`, `repositories of <list file>`, or the scan's `--name`. */
  organization: string;
  /** Commit-weighted over repositories: the mean probability over every scored commit. */
  ai_share: number;
  /**
   * The pooled share's band, raised to `suspicious` when that would read `clean` while a repository
   * is not: the badge never says `clean` over repositories that are not (`by_assessment` says which).
   */
  assessment: RepositoryAssessment;
  /** The analysed repositories in each band, most assistant-made first. */
  by_assessment: Record<RepositoryAssessment, { repository: string; ai_share: number }[]>;
  assessment_bands: AssessmentBands;
  total_commits: number;
  scored_commits: number;
  flagged: number;
  attributed: number;
  automation_commits: number;
  /** Repositories listed, analyzed and failed. */
  counts: { listed: number; analyzed: number; failed: number };
  repositories: OrganizationRepository[];
  authors: OrganizationAuthor[];
  months: MonthlyShare[];
  /** Attributed commits per assistant. */
  assistants: Record<string, number>;
  /** The lines at HEAD of every repository whose lines were counted, summed (not averaged); absent when none was. */
  lines?: OrganizationLines & { repositories: number };
  generated_at: string;
}
