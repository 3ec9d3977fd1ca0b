import type { AnalysisRequest } from '@cadence-detect/engine';
import type { OperationalCode } from '@cadence-detect/errors';
import type { OrganizationResult } from '@cadence-detect/organization';
import type { AnalysisResult, ForgeTarget, ReportOutcome } from '@cadence-detect/plugin-sdk';
import type { JobEvent } from './job-events.js';

/** A job's states (docs/http-api.md, The job). */
export type JobStatus = 'queued' | 'running' | 'completed' | 'failed' | 'cancelled' | 'timeout';
export type JobSource = `webhook:${string}` | 'api' | 'stream' | 'schedule';

export const FINAL_STATUSES: ReadonlySet<JobStatus> = new Set(['completed', 'failed', 'cancelled', 'timeout']);

export function isFinal(status: JobStatus): boolean {
  return FINAL_STATUSES.has(status);
}

/** What every job has, whatever it analyses. */
interface JobCommon {
  readonly id: string;
  status: JobStatus;
  readonly source: JobSource;
  /** `owner/repo` for repositories, the URL for websites, `github:acme` (or `repositories`) for an organization. */
  readonly repo: string;
  /** Null until known: a request that names no branch gets the one the clone checked out. */
  branch: string | null;
  readonly url: string;
  readonly created_at: string;
  started_at: string | null;
  finished_at: string | null;
  error: string | null;
  /** One of the interface's codes, or of the few it leaves to us (docs/http-api.md, Error codes). */
  error_code: OperationalCode | null;
  /** The engine's precise cause where `error_code` is its nearest interface code (`branch_not_found`). Absent in records before it. */
  error_reason?: string | null;
  /** A scan's repository job: the organization job it belongs to. */
  readonly parent_id?: string;
  /** A scan's repository job: the forge whose plugin gives git its credentials (never the credentials). Not shown. */
  readonly git_credentials?: string;
  /** The forge commit a webhook's job reports on (reporters read it); absent for API jobs. */
  readonly forge?: ForgeTarget | null;
  /** What reporters did, in the order they finished (shown as `reports` and `result.reports`). */
  reports?: ReportOutcome[];
}

/** A repository's or a website's analysis: the engine's run of one request. */
export interface AnalysisJob extends JobCommon {
  readonly kind: 'repository' | 'website';
  /** What the worker runs. Not shown. */
  readonly request: AnalysisRequest;
  result?: AnalysisResult;
}

/** An organization's scan: one repository job per repository it lists, and their summary. */
export interface OrganizationJob extends JobCommon {
  readonly kind: 'organization';
  /** What its scan lists. Not shown. */
  readonly request: OrganizationRequest;
  /** Repositories done (ended either way) of those listed (null until listed). */
  progress?: ScanProgress;
  /** Its repositories and their jobs, in the order listed. */
  children?: ScanChild[];
  /** When its scan last said it runs (every few seconds). Not shown. */
  heartbeat_at?: string;
  /** The organization's result, once every repository job has ended. */
  organization?: OrganizationResult;
}

/** A job, told apart by its `kind`: what it carries depends on what it analyses. */
export type Job = AnalysisJob | OrganizationJob;

/** What an organization job scans: a forge's organization or group, or a list of repositories. */
export interface OrganizationRequest {
  readonly kind: 'organization';
  /** `github:acme`, `gitlab:group/sub`, or `repositories` (shown as the job's `url`). */
  readonly url: string;
  readonly forge?: string;
  readonly owner?: string;
  readonly repositories?: readonly string[];
  readonly include_forks?: boolean;
  readonly include_archived?: boolean;
  readonly match?: string;
  readonly since?: string;
}

export interface ScanProgress {
  total: number | null;
  done: number;
  failed: number;
}

export interface ScanChild {
  readonly repository: string;
  job_id: string | null;
  status: JobStatus | 'waiting';
  error_code: string | null;
}

/** At most this many report outcomes per job: a reporter retrying in a loop cannot grow the record. */
export const MAX_REPORTS_PER_JOB = 50;

/** docs/http-api.md, The job: the job as `GET /jobs/:id` shows it (full result) or as a list item (short result). */
export function jobView(job: Job, form: 'full' | 'list'): Record<string, unknown> {
  const view: Record<string, unknown> = {
    id: job.id,
    job_id: job.id,
    status: job.status,
    kind: job.kind,
    source: job.source,
    repo: job.repo,
    branch: job.branch,
    url: job.url,
    timestamp: job.created_at,
    created_at: job.created_at,
    started_at: job.started_at,
    finished_at: job.finished_at,
    error: job.error,
    error_code: job.error_code,
    error_reason: job.error_reason ?? null,
  };
  if (job.parent_id !== undefined) view.parent_id = job.parent_id;
  if (job.kind === 'organization') return organizationView(job, view, form);
  const reports = job.reports ?? [];
  if (form === 'full') view.reports = reports;
  if (job.status === 'completed' && job.result)
    view.result = form === 'full' ? { ...job.result, reports } : shortResult(job.result);
  return view;
}

/** docs/http-api.md, The organization job: progress, its repositories' jobs (full view), and the organization result once done. */
function organizationView(
  job: OrganizationJob,
  view: Record<string, unknown>,
  form: 'full' | 'list',
): Record<string, unknown> {
  view.progress = job.progress ?? { total: null, done: 0, failed: 0 };
  if (form === 'full') view.children = job.children ?? [];
  const org = job.organization;
  if (job.status === 'completed' && org) {
    view.result = form === 'full' ? org : { ai_share: org.ai_share, assessment: org.assessment, counts: org.counts };
  }
  return view;
}

/**
 * docs/http-api.md, GET /jobs: list items carry `suspicious_commits` and `overall_score` (websites: `overall_score`
 * and `assessment`). Repository items also carry `assessment`, so that a list (the dashboard's)
 * can show the verdict without reading every job.
 */
export function shortResult(result: AnalysisResult): Record<string, unknown> {
  if (result.source_type === 'git')
    return {
      suspicious_commits: result.suspicious_commits,
      overall_score: result.overall_score,
      assessment: result.assessment,
    };
  return { overall_score: result.overall_score, assessment: result.assessment };
}

/** The `complete` event of a job that produced `result`. */
export function completeEvent(jobId: string, result: AnalysisResult): JobEvent {
  const counts =
    result.source_type === 'git'
      ? { suspicious_count: result.suspicious_commits }
      : { strategies_triggered: result.strategies_triggered };
  return { event: 'complete', type: 'complete', job_id: jobId, ...counts, overall_score: result.overall_score, result };
}

/** A final job's last event: `complete` with its result, or `error` with its code. */
export function endEventOf(job: Job): JobEvent {
  if (job.status === 'completed' && job.kind === 'organization' && job.organization)
    return { event: 'complete', type: 'complete', job_id: job.id, progress: job.progress, result: job.organization };
  if (job.status === 'completed' && job.kind !== 'organization' && job.result) return completeEvent(job.id, job.result);
  return {
    event: 'error',
    type: 'error',
    error: job.error_code ?? 'ERR_INTERNAL',
    ...(job.error_reason ? { reason: job.error_reason } : {}),
    message: job.error ?? 'failed',
    job_id: job.id,
    status: job.status,
  };
}
