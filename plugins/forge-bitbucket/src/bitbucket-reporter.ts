import {
  failsPolicy,
  forgeReportCall,
  forgeReportOutcome,
  PendingStatuses,
  REPORT_COMMENT_MARKER,
  reportCommentBody,
  verdictLine,
  type AnalysisResult,
  type FailOn,
  type ForgeCallOutcome,
  type JobInfo,
  type PluginLogger,
  type ReportOutcome,
} from '@cadence-detect/plugin-sdk';
import {
  bitbucketRequest,
  nextPath,
  repoPath,
  type BitbucketCredentials,
  type BitbucketPage,
} from './bitbucket-client.js';

type Record_ = (outcome: ReportOutcome) => void;
type BuildState = 'INPROGRESS' | 'SUCCESSFUL' | 'FAILED' | 'STOPPED';

const STATUS_KEY = 'cadence';
/** Comments looked through for Cadence's own, at most (20 pages of 100). */
const MAX_COMMENT_PAGES = 20;
/** Bitbucket keeps a comment's raw text up to about 32 KB; the summary is cut to fit. */
const MAX_COMMENT_CHARS = 30_000;

/**
 * Reports a job's verdict on Bitbucket Cloud: a build status (key `cadence`: `INPROGRESS`, then
 * `SUCCESSFUL` or `FAILED`; `STOPPED` for a cancelled job) and, with `pull_request_comment`, one
 * comment on the commit's open pull request, edited on each push. A build status must link
 * somewhere: without `server.public_url` (no job URL) none is posted, and each job records why.
 * Never throws; each outcome is recorded.
 */
export class BitbucketReporter {
  private readonly pending = new PendingStatuses();

  constructor(
    private readonly credentials: BitbucketCredentials,
    private readonly settings: { readonly failOn: FailOn; readonly comment: boolean },
    private readonly logger: PluginLogger,
  ) {}

  start(job: JobInfo, record: Record_): void {
    if (job.forge?.forge !== 'bitbucket') return;
    this.pending.begin(job, (stop) => this.status(job, 'INPROGRESS', 'Cadence is analyzing this push', record, stop));
  }

  async finish(job: JobInfo, result: AnalysisResult, record: Record_): Promise<void> {
    if (job.forge?.forge !== 'bitbucket') return;
    await this.pending.settle(job);
    const state = failsPolicy(result.assessment, this.settings.failOn) ? 'FAILED' : 'SUCCESSFUL';
    await this.status(job, state, verdictLine(result, 255), record);
    if (this.settings.comment) await this.comment(job, result, record);
  }

  async fail(job: JobInfo, error: { code: string }, record: Record_): Promise<void> {
    if (job.forge?.forge !== 'bitbucket') return;
    await this.pending.settle(job);
    const state = error.code === 'ERR_CANCELLED' ? 'STOPPED' : 'FAILED';
    await this.status(job, state, `Cadence could not analyze this push: ${error.code}`, record);
  }

  private async status(
    job: JobInfo,
    state: BuildState,
    description: string,
    record: Record_,
    stop?: AbortSignal,
  ): Promise<void> {
    const { repository, sha } = job.forge!;
    if (!job.url) {
      record(
        this.outcome('build-status', job, state, {
          ok: false,
          code: 'ERR_REPORTER_FAILED',
          status: null,
          reason: 'Bitbucket build statuses link to the job: set server.public_url (CADENCE_PUBLIC_URL)',
        }),
      );
      return;
    }
    const url = job.url;
    const outcome = await forgeReportCall(
      (signal) =>
        bitbucketRequest(
          this.credentials,
          'POST',
          `/repositories/${repoPath(repository)}/commit/${encodeURIComponent(sha)}/statuses/build`,
          signal,
          { key: STATUS_KEY, state, name: 'Cadence', description, url },
        ),
      { deadline: job.deadline, ...(stop ? { stop } : {}) },
    );
    record(this.outcome('build-status', job, state, outcome));
  }

  /** One comment per pull request: found again by its marker and edited; created the first time. */
  private async comment(job: JobInfo, result: AnalysisResult, record: Record_): Promise<void> {
    const { repository, sha } = job.forge!;
    const repo = `/repositories/${repoPath(repository)}`;
    let target = `${repository}@${sha}`;
    const outcome = await forgeReportCall(
      async (signal) => {
        const requests = await bitbucketRequest<BitbucketPage<{ id: number; state?: string }>>(
          this.credentials,
          'GET',
          `${repo}/commit/${encodeURIComponent(sha)}/pullrequests?pagelen=50`,
          signal,
        );
        const open = requests.values.find((r) => r.state === undefined || r.state === 'OPEN');
        if (!open) return 'none';
        target = `${repository}#${open.id}`;
        const content = { raw: reportCommentBody(result, sha, job.url, MAX_COMMENT_CHARS) };
        const comments = `${repo}/pullrequests/${open.id}/comments`;
        const mine = await this.findComment(`${comments}?pagelen=100`, signal);
        if (mine !== null) await bitbucketRequest(this.credentials, 'PUT', `${comments}/${mine}`, signal, { content });
        else await bitbucketRequest(this.credentials, 'POST', comments, signal, { content });
        return mine !== null ? 'updated' : 'created';
      },
      { deadline: job.deadline },
    );
    if (outcome.ok && outcome.value === 'none') return;
    record({ ...this.outcome('pull-request-comment', job, outcome.ok ? outcome.value : 'comment', outcome), target });
  }

  /** Cadence's comment on the request (its marker), following `next` within the API only. */
  private async findComment(first: string, signal: AbortSignal): Promise<number | null> {
    let path: string | null = first;
    for (let page = 0; path !== null && page < MAX_COMMENT_PAGES; page++) {
      const comments: BitbucketPage<{ id: number; content?: { raw?: string } }> = await bitbucketRequest(
        this.credentials,
        'GET',
        path,
        signal,
      );
      const mine = comments.values.find((c) => c.content?.raw?.startsWith(REPORT_COMMENT_MARKER));
      if (mine) return mine.id;
      path = nextPath(this.credentials, comments.next);
    }
    return null;
  }

  private outcome(kind: string, job: JobInfo, state: string, result: ForgeCallOutcome<unknown>): ReportOutcome {
    return forgeReportOutcome(
      { reporter: 'report-bitbucket', forge: 'bitbucket', logger: this.logger },
      kind,
      job,
      state,
      result,
    );
  }
}
