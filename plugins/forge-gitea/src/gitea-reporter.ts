import {
  failsPolicy,
  ForgeHttpError,
  forgeReportCall,
  forgeReportOutcome,
  REPORT_COMMENT_MARKER,
  reportCommentBody,
  PendingStatuses,
  verdictLine,
  type AnalysisResult,
  type FailOn,
  type ForgeCallOutcome,
  type JobInfo,
  type PluginLogger,
  type ReportOutcome,
} from '@cadence-detect/plugin-sdk';
import { giteaRequest, repoPath, type GiteaCredentials } from './gitea-client.js';

type Record_ = (outcome: ReportOutcome) => void;
type StatusState = 'pending' | 'success' | 'failure' | 'error';

const CONTEXT = 'cadence';

/**
 * Reports a job's verdict on Gitea or Forgejo: a commit status (context `cadence`: `pending`, then
 * `success` or `failure`; `error` when the job fails) and, with `pull_request_comment`, one comment on
 * the commit's open pull request, edited on each push rather than added again. The final status waits for the pending one at most two seconds. Never
 * throws; each outcome is recorded.
 */
export class GiteaReporter {
  private readonly pending = new PendingStatuses();

  constructor(
    private readonly credentials: GiteaCredentials,
    private readonly settings: { readonly failOn: FailOn; readonly comment: boolean },
    private readonly logger: PluginLogger,
  ) {}

  start(job: JobInfo, record: Record_): void {
    if (job.forge?.forge !== 'gitea') return;
    this.pending.begin(job, (stop) => this.status(job, 'pending', 'Cadence is analyzing this push', record, stop));
  }

  async finish(job: JobInfo, result: AnalysisResult, record: Record_): Promise<void> {
    if (job.forge?.forge !== 'gitea') return;
    await this.pending.settle(job);
    const state = failsPolicy(result.assessment, this.settings.failOn) ? 'failure' : 'success';
    await this.status(job, state, verdictLine(result, 255), record);
    if (this.settings.comment) await this.comment(job, result, record);
  }

  async fail(job: JobInfo, error: { code: string }, record: Record_): Promise<void> {
    if (job.forge?.forge !== 'gitea') return;
    await this.pending.settle(job);
    await this.status(job, 'error', `Cadence could not analyze this push: ${error.code}`, record);
  }

  private async status(
    job: JobInfo,
    state: StatusState,
    description: string,
    record: Record_,
    stop?: AbortSignal,
  ): Promise<void> {
    const { repository, sha } = job.forge!;
    const outcome = await forgeReportCall(
      (signal) =>
        giteaRequest(this.credentials, 'POST', `/repos/${repoPath(repository)}/statuses/${sha}`, signal, {
          state,
          context: CONTEXT,
          description,
          ...(job.url ? { target_url: job.url } : {}),
        }),
      { deadline: job.deadline, ...(stop ? { stop } : {}) },
    );
    record(this.outcome('commit-status', job, state, outcome));
  }

  /** One comment per pull request: found again by its marker and edited; created the first time. */
  private async comment(job: JobInfo, result: AnalysisResult, record: Record_): Promise<void> {
    const { repository, sha } = job.forge!;
    const repo = `/repos/${repoPath(repository)}`;
    let target = `${repository}@${sha}`;
    const outcome = await forgeReportCall(
      async (signal) => {
        let request: { number: number; state: string };
        try {
          request = await giteaRequest(this.credentials, 'GET', `${repo}/commits/${sha}/pull`, signal);
        } catch (error) {
          // No pull request holds the commit: nothing to comment on.
          if (error instanceof ForgeHttpError && error.status === 404) return 'none';
          throw error;
        }
        if (request.state !== 'open') return 'none';
        target = `${repository}#${request.number}`;
        const body = reportCommentBody(result, sha, job.url);
        const mine = await this.findComment(`${repo}/issues/${request.number}/comments`, signal);
        if (mine !== null)
          await giteaRequest(this.credentials, 'PATCH', `${repo}/issues/comments/${mine}`, signal, { body });
        else
          await giteaRequest(this.credentials, 'POST', `${repo}/issues/${request.number}/comments`, signal, { body });
        return mine !== null ? 'updated' : 'created';
      },
      { deadline: job.deadline },
    );
    if (outcome.ok && outcome.value === 'none') return;
    record({ ...this.outcome('pull-request-comment', job, outcome.ok ? outcome.value : 'comment', outcome), target });
  }

  /** Cadence's comment on the request (its marker), paging through at most 20 pages of 50. */
  private async findComment(path: string, signal: AbortSignal): Promise<number | null> {
    for (let page = 1; page <= 20; page++) {
      const comments = await giteaRequest<{ id: number; body: string }[]>(
        this.credentials,
        'GET',
        `${path}?limit=50&page=${page}`,
        signal,
      );
      const mine = comments.find((c) => typeof c.body === 'string' && c.body.startsWith(REPORT_COMMENT_MARKER));
      if (mine) return mine.id;
      if (comments.length < 50) return null;
    }
    return null;
  }

  private outcome(kind: string, job: JobInfo, state: string, result: ForgeCallOutcome<unknown>): ReportOutcome {
    return forgeReportOutcome(
      { reporter: 'report-gitea', forge: 'gitea', logger: this.logger },
      kind,
      job,
      state,
      result,
    );
  }
}
