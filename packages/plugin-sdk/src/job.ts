import type { PluginLogger } from './logger.js';

/**
 * The forges a result can be reported to: GitHub, GitLab, or any forge a plugin declares
 * (`ForgeDefinition.name`, since 1.6).
 * @since 1.3
 */
export type Forge = 'github' | 'gitlab' | (string & {});

/** Where on a forge a job's verdict belongs: the commit a push or a request's head points at. */
export interface ForgeTarget {
  readonly forge: Forge;
  /** `owner/name` on GitHub; the project's path (`group/project`) on GitLab. */
  readonly repository: string;
  /** The full hash of the commit the verdict is about (a push's `after`); a Bitbucket request's head by the 12 characters its payload gives. */
  readonly sha: string;
  /** GitHub: the App installation that sent the webhook, when it came from an App. */
  readonly installation_id?: number;
  /** GitLab: the project's numeric id. */
  readonly project_id?: number;
}

/** The job an analysis runs for, when it runs for one (the server's jobs; the CLI has none). */
export interface JobInfo {
  readonly id: string;
  /** Where a person sees the job (`server.public_url` + `/jobs/<id>`), or null when no public URL is set. */
  readonly url: string | null;
  /** Null when the job did not come from a forge's webhook. */
  readonly forge: ForgeTarget | null;
  /** Epoch milliseconds: the end of the job's time; reporters stop retrying there. */
  readonly deadline: number;
}

/** What one reporter did for a job, as `result.reports[]` and `GET /jobs/:id` show it. */
export interface ReportOutcome {
  /** The plugin that reported. */
  readonly reporter: string;
  readonly forge: Forge | null;
  /** `commit-status`, `check-run`, `merge-request-note`… */
  readonly kind: string;
  /** What was reported on, e.g. `owner/name@<sha>`. */
  readonly target: string;
  /** The state sent (`pending`, `success`, `failure`, `in_progress`, `completed`…). */
  readonly state: string;
  readonly ok: boolean;
  /** Set when `ok` is false: an operational code (ERR_FORGE_AUTH, ERR_FORGE_RATE_LIMIT…). */
  readonly error_code: string | null;
  /**
   * Set when `ok` is false: the cause in words (`describeRequestFailure`): DNS, refused, TLS, an HTTP status.
   * @since 1.5
   */
  readonly reason?: string;
  /** When it finished (ISO 8601). */
  readonly at: string;
}

/** What `jobStart` taps get: the job, before its source is fetched. */
export interface JobStart {
  readonly job: JobInfo;
  readonly request: { readonly kind: 'repository' | 'website'; readonly url: string };
  readonly logger: PluginLogger;
  /** Records a reporter's outcome on the job; never throws. */
  recordReport(outcome: ReportOutcome): void;
}

/** What `jobFailed` taps get: the job, and why its analysis ended without a result. */
export interface JobFailure {
  readonly job: JobInfo;
  /** The operational code (ERR_GIT_CLONE_FAILED, ERR_JOB_TIMEOUT, ERR_CANCELLED…) and its message. */
  readonly error: { readonly code: string; readonly message: string };
  readonly logger: PluginLogger;
  recordReport(outcome: ReportOutcome): void;
}
