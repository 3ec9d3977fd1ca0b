import { isJobOf, type ForgeReporter } from './forge-reporter.js';
import {
  forgeReportCall,
  forgeReportOutcome,
  reportTarget,
  PendingStatuses,
  type ForgeCallOutcome,
  type ForgeFailure,
} from './forge-call.js';
import { failsPolicy, verdictLine } from '@cadence-detect/plugin-sdk';
import type { Forge, JobInfo, ReportOutcome, PluginLogger, AnalysisResult, FailOn } from '@cadence-detect/plugin-sdk';

/**
 * What a forge that reports by commit status (and, optionally, one request comment) says about its
 * own API; `statusReporter` does the rest.
 * @since 1.13
 */
export interface StatusReporterSpec {
  /** The outcome records' `reporter` (`report-gitea`). */
  readonly reporter: string;
  readonly forge: Forge;
  readonly logger: PluginLogger;
  readonly failOn: FailOn;
  /** The forge's words for each state: running, the verdict passing or failing the policy, the job failing, a cancelled job. */
  readonly states: {
    readonly pending: string;
    readonly success: string;
    readonly failure: string;
    readonly error: string;
    readonly cancelled?: string;
  };
  /** The outcome records' `kind` for a status (default `commit-status`). */
  readonly statusKind?: string;
  /** Whether a job of the forge can be reported on at all (GitLab: its project id is known). Default: every job of the forge. */
  readonly accepts?: (job: JobInfo) => boolean;
  /** Why a status cannot be posted for this job (Bitbucket: no job URL to link), or null. Recorded as a failed report. */
  readonly cannotPost?: (job: JobInfo) => string | null;
  /** Sets the job's status; throws on a refusal (the SDK's `forgeRequest` does). */
  readonly postStatus: (job: JobInfo, state: string, description: string, signal: AbortSignal) => Promise<unknown>;
  /** The request comment, when enabled: finds the commit's open request and creates or edits its comment. */
  readonly comment?: {
    /** The outcome records' `kind` (`pull-request-comment`) and `state` when the call fails (`comment`). */
    readonly kind: string;
    readonly failedState: string;
    /** `'none'` when no open request holds the commit; `target(…)` names the request once found. */
    readonly post: (
      job: JobInfo,
      result: AnalysisResult,
      signal: AbortSignal,
      target: (name: string) => void,
    ) => Promise<'created' | 'updated' | 'none'>;
  };
  /** The forge client's reading of its errors (default: the SDK's `classifyForgeFailure`). */
  readonly classify?: (
    error: unknown,
  ) => ForgeFailure | { code: string; status: number | null; retryAfterMs: number | null };
}

/**
 * A forge reporter built from a `StatusReporterSpec`: the pending status when the job starts, the
 * verdict when it ends (failing when `failOn` says so; the description is the verdict line), the
 * error (or cancelled) state when it fails, each call with the SDK's retries (`forgeReportCall`), the
 * final status waiting for the pending one at most two seconds (`PendingStatuses`), then the comment.
 * Never throws; each outcome is recorded. Give it to `tapForgeReporter`.
 * @since 1.13
 */
export function statusReporter(spec: StatusReporterSpec): ForgeReporter {
  const pending = new PendingStatuses();
  const mine = (job: JobInfo): boolean => isJobOf(job, spec.forge) && (spec.accepts?.(job) ?? true);
  return {
    start(job, recordReport) {
      if (!mine(job)) return;
      pending.begin(job, (stop) =>
        postStatus(spec, job, spec.states.pending, 'Cadence is analyzing this push', recordReport, stop),
      );
    },
    async finish(job, result, recordReport) {
      if (!mine(job)) return;
      await pending.settle(job);
      const state = failsPolicy(result.assessment, spec.failOn) ? spec.states.failure : spec.states.success;
      await postStatus(spec, job, state, verdictLine(result, 255), recordReport);
      if (spec.comment) await postComment(spec, spec.comment, job, result, recordReport);
    },
    async fail(job, error, recordReport) {
      if (!mine(job)) return;
      await pending.settle(job);
      const cancelled = error.code === 'ERR_CANCELLED' && spec.states.cancelled !== undefined;
      await postStatus(
        spec,
        job,
        cancelled ? spec.states.cancelled : spec.states.error,
        `Cadence could not analyze this push: ${error.code}`,
        recordReport,
      );
    },
  };
}

type RecordReport = (outcome: ReportOutcome) => void;

/** One forge call with the reporters' retries, within the job's deadline. */
function reportCall<T>(
  spec: StatusReporterSpec,
  job: JobInfo,
  run: (signal: AbortSignal) => Promise<T>,
  stop?: AbortSignal,
): Promise<ForgeCallOutcome<T>> {
  return forgeReportCall(run, {
    deadline: job.deadline,
    ...(stop ? { stop } : {}),
    ...(spec.classify ? { classify: spec.classify } : {}),
  });
}

async function postStatus(
  spec: StatusReporterSpec,
  job: JobInfo,
  state: string,
  description: string,
  recordReport: RecordReport,
  stop?: AbortSignal,
): Promise<void> {
  const kind = spec.statusKind ?? 'commit-status';
  const refused = spec.cannotPost?.(job) ?? null;
  if (refused !== null) {
    recordReport(
      forgeReportOutcome(spec, kind, job, state, {
        ok: false,
        code: 'ERR_REPORTER_FAILED',
        status: null,
        reason: refused,
      }),
    );
    return;
  }
  const outcome = await reportCall(spec, job, (signal) => spec.postStatus(job, state, description, signal), stop);
  recordReport(forgeReportOutcome(spec, kind, job, state, outcome));
}

async function postComment(
  spec: StatusReporterSpec,
  comment: NonNullable<StatusReporterSpec['comment']>,
  job: JobInfo,
  result: AnalysisResult,
  recordReport: RecordReport,
): Promise<void> {
  const { kind, failedState, post } = comment;
  let target = reportTarget(job);
  const outcome = await reportCall(spec, job, (signal) => post(job, result, signal, (name) => (target = name)));
  if (outcome.ok && outcome.value === 'none') return;
  recordReport({ ...forgeReportOutcome(spec, kind, job, outcome.ok ? outcome.value : failedState, outcome), target });
}
