import type {
  AnalysisResult,
  JobInfo,
  PluginLogger,
  ReportOutcome,
  RepositoryResult,
} from '@cadence-detect/plugin-sdk';
import { describeRequestFailure, isJobOf, type ForgeJob } from '@cadence-detect/forge-kit';
import { forgeErrorCode } from './forge-error.js';
import { githubClient, type GithubClient } from './github-client.js';
import type { FailOn } from './verdict.js';
import type { GithubCredentials } from './options.js';
import { checkSummary, verdictOf } from './verdict.js';

const CONTEXT = 'cadence';
const CHECK_NAME = 'cadence';
/** GitHub takes at most 50 annotations per request. */
const MAX_ANNOTATIONS = 50;

type Record_ = (outcome: ReportOutcome) => void;

interface JobState {
  readonly client: GithubClient;
  /** The `pending`/`in_progress` call: the final one waits for it (a little), so it cannot be overtaken. */
  readonly started: Promise<number | null>;
  /** Stops the start call (and its retries) when the final call goes ahead without it. */
  readonly stopStart: AbortController;
}

/**
 * How long the final status waits for a start call still in flight (a forge that is slow, or
 * retried after a failure): then the start call is stopped, so it can neither delay the verdict
 * past this nor land after it.
 */
const START_GRACE_MS = 2000;

/**
 * Reports a job's verdict on its commit: a commit status with a token, a check run with a GitHub
 * App. One job's calls run in order (pending, then the final state); they never throw, each ends
 * in an outcome recorded on the job.
 */
export class GithubReporter {
  private readonly jobs = new Map<string, JobState>();

  constructor(
    private readonly credentials: GithubCredentials,
    private readonly failOn: FailOn,
    private readonly logger: PluginLogger,
  ) {}

  start(job: JobInfo, record: Record_): void {
    if (!isJobOf(job, 'github')) return;
    const client = this.client(job);
    if (!client) return;
    const stopStart = new AbortController();
    const started = this.usesChecks(job)
      ? this.createCheck(client, job, record, stopStart.signal)
      : this.status(client, job, 'pending', 'Cadence is analyzing this push', record, stopStart.signal).then(
          () => null,
        );
    this.jobs.set(job.id, { client, started, stopStart });
    // A job that never ends here (its process stopped) does not keep its state past its time.
    setTimeout(() => this.jobs.delete(job.id), Math.max(0, job.deadline - Date.now()) + 60_000).unref();
  }

  async finish(job: JobInfo, result: AnalysisResult, record: Record_): Promise<void> {
    if (!isJobOf(job, 'github')) return;
    const state = this.take(job);
    if (!state) return;
    const checkId = await settle(state);
    const verdict = verdictOf(result, this.failOn);
    if (this.usesChecks(job)) {
      await this.completeCheck(
        state.client,
        job,
        checkId,
        {
          conclusion: verdict.failing ? 'failure' : 'neutral',
          title: verdict.description,
          summary: checkSummary(result, this.failOn, job.url),
          annotations: result.source_type === 'git' ? annotations(result) : [],
        },
        record,
      );
    } else {
      await this.status(state.client, job, verdict.failing ? 'failure' : 'success', verdict.description, record);
    }
  }

  async fail(job: JobInfo, error: { code: string; message: string }, record: Record_): Promise<void> {
    if (!isJobOf(job, 'github')) return;
    const state = this.take(job);
    if (!state) return;
    const checkId = await settle(state);
    const description = `Cadence could not analyze this push: ${error.code}`;
    if (this.usesChecks(job))
      await this.completeCheck(
        state.client,
        job,
        checkId,
        { conclusion: 'action_required', title: description, summary: description, annotations: [] },
        record,
      );
    else await this.status(state.client, job, 'error', description, record);
  }

  private take(job: ForgeJob): JobState | undefined {
    const state =
      this.jobs.get(job.id) ??
      (() => {
        // The start was not seen here (a cached result, a restarted worker): report without it.
        const client = this.client(job);
        return client ? { client, started: Promise.resolve(null), stopStart: new AbortController() } : undefined;
      })();
    this.jobs.delete(job.id);
    return state;
  }

  /**
   * A client for one job: bounded by the job's time (every request carries a signal that ends with
   * it, and a rate limit is waited out only when its reset comes before the job's end), as the App's
   * installation when the push came from one and an App is configured, else with the token.
   */
  private client(job: ForgeJob): GithubClient | null {
    return githubClient(this.credentials, {
      retries: 3,
      rateLimitsUntil: job.deadline,
      signal: AbortSignal.timeout(Math.max(1000, job.deadline - Date.now())),
      ...(job.forge.installation_id !== undefined ? { installationId: job.forge.installation_id } : {}),
    });
  }

  /** Whether this job reports with check runs (an App installation) rather than commit statuses. */
  private usesChecks(job: ForgeJob): boolean {
    return this.credentials.app !== null && job.forge.installation_id !== undefined;
  }

  private async status(
    client: GithubClient,
    job: ForgeJob,
    state: 'pending' | 'success' | 'failure' | 'error',
    description: string,
    record: Record_,
    stop?: AbortSignal,
  ): Promise<void> {
    const { repository, sha } = job.forge;
    const [owner = '', repo = ''] = repository.split('/');
    try {
      await client.rest.repos.createCommitStatus({
        owner,
        repo,
        sha,
        state,
        context: CONTEXT,
        description,
        ...(job.url ? { target_url: job.url } : {}),
        ...requestSignal(job, stop),
      });
      record(this.outcome('commit-status', job, state, null));
    } catch (error) {
      record(this.outcome('commit-status', job, state, error));
    }
  }

  private async createCheck(
    client: GithubClient,
    job: ForgeJob,
    record: Record_,
    stop: AbortSignal,
  ): Promise<number | null> {
    const { repository, sha } = job.forge;
    const [owner = '', repo = ''] = repository.split('/');
    try {
      const { data } = await client.rest.checks.create({
        owner,
        repo,
        name: CHECK_NAME,
        head_sha: sha,
        status: 'in_progress',
        external_id: job.id,
        ...(job.url ? { details_url: job.url } : {}),
        ...requestSignal(job, stop),
      });
      record(this.outcome('check-run', job, 'in_progress', null));
      return data.id;
    } catch (error) {
      record(this.outcome('check-run', job, 'in_progress', error));
      return null;
    }
  }

  private async completeCheck(
    client: GithubClient,
    job: ForgeJob,
    checkId: number | null,
    output: {
      conclusion: 'success' | 'neutral' | 'failure' | 'action_required';
      title: string;
      summary: string;
      annotations: Annotation[];
    },
    record: Record_,
  ): Promise<void> {
    const { repository, sha } = job.forge;
    const [owner = '', repo = ''] = repository.split('/');
    const body = {
      owner,
      repo,
      status: 'completed' as const,
      conclusion: output.conclusion,
      completed_at: new Date().toISOString(),
      output: {
        title: output.title,
        summary: output.summary,
        ...(output.annotations.length > 0 ? { annotations: output.annotations } : {}),
      },
      ...(job.url ? { details_url: job.url } : {}),
    };
    try {
      // No run was created (its call failed): one completed run still carries the verdict.
      if (checkId === null)
        await client.rest.checks.create({ ...body, name: CHECK_NAME, head_sha: sha, external_id: job.id });
      else await client.rest.checks.update({ ...body, check_run_id: checkId });
      record(this.outcome('check-run', job, output.conclusion, null));
    } catch (error) {
      record(this.outcome('check-run', job, output.conclusion, error));
    }
  }

  private outcome(kind: string, job: ForgeJob, state: string, error: unknown): ReportOutcome {
    const code = error === null ? null : forgeErrorCode(error);
    const reason = error === null ? undefined : describeRequestFailure(error);
    if (code)
      this.logger.warn('GitHub report failed', {
        job_id: job.id,
        kind,
        state,
        error_code: code,
        reason,
        status: (error as { status?: number } | null)?.status ?? null,
      });
    return {
      reporter: 'report-github',
      forge: 'github',
      kind,
      target: `${job.forge.repository}@${job.forge.sha}`,
      state,
      ok: code === null,
      error_code: code,
      ...(reason ? { reason } : {}),
      at: new Date().toISOString(),
    };
  }
}

/** The start call's answer, waited for at most START_GRACE_MS: then it is stopped and the final call goes ahead (a new check run). */
async function settle(state: JobState): Promise<number | null> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), START_GRACE_MS);
  });
  const first = await Promise.race([state.started, late]);
  clearTimeout(timer);
  if (first !== 'late') return first;
  state.stopStart.abort();
  return null;
}

/** A call's own signal: the job's time, and for a start call its stop. */
function requestSignal(job: ForgeJob, stop: AbortSignal | undefined): { request: { signal: AbortSignal } } {
  const deadline = AbortSignal.timeout(Math.max(1000, job.deadline - Date.now()));
  return { request: { signal: stop ? AbortSignal.any([deadline, stop]) : deadline } };
}

interface Annotation {
  path: string;
  start_line: number;
  end_line: number;
  annotation_level: 'notice' | 'warning' | 'failure';
  title: string;
  message: string;
}

/** A finding with files becomes an annotation on the file the commit changed most. */
function annotations(result: RepositoryResult): Annotation[] {
  const out: Annotation[] = [];
  for (const s of [...result.suspicions].sort((a, b) => b.confidence - a.confidence)) {
    const path = s.files?.[0];
    if (!path) continue;
    out.push({
      path,
      start_line: 1,
      end_line: 1,
      annotation_level: s.severity === 'high' ? 'failure' : s.severity === 'medium' ? 'warning' : 'notice',
      title:
        `${s.commit_hash}: ${s.evidence === 'explicit' ? 'attributed to an assistant' : 'inferred'} (confidence ${s.confidence.toFixed(2)})`.slice(
          0,
          255,
        ),
      message: s.reasons.join('\n').slice(0, 60_000) || s.message.slice(0, 1000),
    });
    if (out.length >= MAX_ANNOTATIONS) break;
  }
  return out;
}
