import {
  forgeReportOutcome,
  PendingStatuses,
  type AnalysisResult,
  type ForgeCallOutcome,
  type JobInfo,
  type PluginLogger,
  type ReportOutcome,
} from '@cadence-detect/plugin-sdk';
import { gitlabClient, reportCall, type GitlabApi } from './gitlab-client.js';
import type { GitlabCredentials } from './options.js';
import { failsPolicy, NOTE_MARKER, noteBody, statusDescription, type FailOn } from './verdict.js';

type Record_ = (outcome: ReportOutcome) => void;
type StatusState = 'running' | 'success' | 'failed' | 'canceled';

const STATUS_NAME = 'cadence';

/**
 * Reports a job's verdict on GitLab: a commit status (`running`, then `success` or `failed`) and,
 * with `merge_request_note`, one note on the commit's open merge request, updated on each push
 * rather than added again. Calls of one job run in order; none throws; each outcome is recorded.
 */
export class GitlabReporter {
  /** The final status waits for the `running` one at most two seconds; then that one stops retrying. */
  private readonly pending = new PendingStatuses();

  constructor(
    private readonly credentials: GitlabCredentials,
    private readonly settings: { readonly failOn: FailOn; readonly mergeRequestNote: boolean },
    private readonly logger: PluginLogger,
  ) {}

  start(job: JobInfo, record: Record_): void {
    const api = this.api(job);
    if (!api) return;
    this.pending.begin(job, (stop) => this.status(api, job, 'running', 'Cadence is analyzing this push', record, stop));
  }

  async finish(job: JobInfo, result: AnalysisResult, record: Record_): Promise<void> {
    const api = this.api(job);
    if (!api) return;
    await this.pending.settle(job);
    const state = failsPolicy(result.assessment, this.settings.failOn) ? 'failed' : 'success';
    await this.status(api, job, state, statusDescription(result), record);
    if (this.settings.mergeRequestNote) await this.note(api, job, result, record);
  }

  async fail(job: JobInfo, error: { code: string }, record: Record_): Promise<void> {
    const api = this.api(job);
    if (!api) return;
    await this.pending.settle(job);
    await this.status(
      api,
      job,
      error.code === 'ERR_CANCELLED' ? 'canceled' : 'failed',
      `Cadence could not analyze this push: ${error.code}`,
      record,
    );
  }

  private api(job: JobInfo): GitlabApi | null {
    if (job.forge?.forge !== 'gitlab' || job.forge.project_id === undefined) return null;
    return gitlabClient(this.credentials, { timeoutMs: Math.max(1000, job.deadline - Date.now()) });
  }

  private async status(
    api: GitlabApi,
    job: JobInfo,
    state: StatusState,
    description: string,
    record: Record_,
    stop?: AbortSignal,
  ): Promise<void> {
    const { project_id: projectId, sha } = job.forge!;
    const outcome = await reportCall(
      () =>
        api.Commits.editStatus(projectId!, sha, state, {
          name: STATUS_NAME,
          description,
          ...(job.url ? { targetUrl: job.url } : {}),
        }),
      { deadline: job.deadline, ...(stop ? { stop } : {}) },
    );
    record(this.outcome('commit-status', job, state, outcome));
  }

  /** One note per merge request: found again by its marker and edited; created the first time. */
  private async note(api: GitlabApi, job: JobInfo, result: AnalysisResult, record: Record_): Promise<void> {
    const { project_id: projectId, sha } = job.forge!;
    let target = `${job.forge!.repository}@${sha}`;
    const outcome = await reportCall(
      async () => {
        const requests = (await api.Commits.allMergeRequests(projectId!, sha)) as { iid: number; state: string }[];
        const open = requests.find((r) => r.state === 'opened');
        if (!open) return 'none';
        target = `${job.forge!.repository}!${open.iid}`;
        const body = noteBody(result, sha, job.url);
        const notes = (await api.MergeRequestNotes.all(projectId!, open.iid, { perPage: 100, maxPages: 20 })) as {
          id: number;
          body: string;
        }[];
        const mine = notes.find((n) => typeof n.body === 'string' && n.body.startsWith(NOTE_MARKER));
        if (mine) await api.MergeRequestNotes.edit(projectId!, open.iid, mine.id, { body });
        else await api.MergeRequestNotes.create(projectId!, open.iid, body);
        return mine ? 'updated' : 'created';
      },
      { deadline: job.deadline },
    );
    if (outcome.ok && outcome.value === 'none') return;
    record({
      ...this.outcome('merge-request-note', job, outcome.ok ? String(outcome.value) : 'note', outcome),
      target,
    });
  }

  private outcome(kind: string, job: JobInfo, state: string, result: ForgeCallOutcome<unknown>): ReportOutcome {
    return forgeReportOutcome(
      { reporter: 'report-gitlab', forge: 'gitlab', logger: this.logger },
      kind,
      job,
      state,
      result,
    );
  }
}
