import { Gitlab } from '@gitbeaker/rest';
import { describeRequestFailure, type AnalysisResult, type JobInfo, type PluginLogger, type ReportOutcome } from '@cadence-detect/plugin-sdk';
import type { GitlabReportOptions } from './options.js';
import { failsPolicy, NOTE_MARKER, noteBody, statusDescription } from './verdict.js';

type Record_ = (outcome: ReportOutcome) => void;
type Api = InstanceType<typeof Gitlab>;
type StatusState = 'running' | 'success' | 'failed' | 'canceled';

const STATUS_NAME = 'cadence';
/** How long the final status waits for the `running` one still being tried; then that one stops retrying. */
const START_GRACE_MS = 2000;
/** Back-off between attempts after a server error or a rate limit gitbeaker gave up on. */
const BACK_OFF_MS = [1000, 4000, 9000];

/**
 * Reports a job's verdict on GitLab: a commit status (`running`, then `success` or `failed`) and,
 * with `merge_request_note`, one note on the commit's open merge request, updated on each push
 * rather than added again. Calls of one job run in order; none throws; each outcome is recorded.
 */
export class GitlabReporter {
  private readonly started = new Map<string, { done: Promise<void>; stop: AbortController }>();

  constructor(private readonly options: GitlabReportOptions, private readonly logger: PluginLogger) {}

  start(job: JobInfo, record: Record_): void {
    const api = this.api(job);
    if (!api) return;
    const stop = new AbortController();
    this.started.set(job.id, { done: this.status(api, job, 'running', 'Cadence is analyzing this push', record, stop.signal), stop });
    setTimeout(() => this.started.delete(job.id), Math.max(0, job.deadline - Date.now()) + 60_000).unref();
  }

  async finish(job: JobInfo, result: AnalysisResult, record: Record_): Promise<void> {
    const api = this.api(job);
    if (!api) return;
    await this.afterStart(job);
    const state = failsPolicy(result.assessment, this.options.fail_on) ? 'failed' : 'success';
    await this.status(api, job, state, statusDescription(result), record);
    if (this.options.merge_request_note) await this.note(api, job, result, record);
  }

  async fail(job: JobInfo, error: { code: string }, record: Record_): Promise<void> {
    const api = this.api(job);
    if (!api) return;
    await this.afterStart(job);
    await this.status(api, job, error.code === 'ERR_CANCELLED' ? 'canceled' : 'failed', `Cadence could not analyze this push: ${error.code}`, record);
  }

  /** The `running` status first, waited for at most START_GRACE_MS: then it retries no more and the final one goes ahead. */
  private async afterStart(job: JobInfo): Promise<void> {
    const started = this.started.get(job.id);
    this.started.delete(job.id);
    if (!started) return;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'late'>((resolve) => {
      timer = setTimeout(() => resolve('late'), START_GRACE_MS);
    });
    if ((await Promise.race([started.done, late])) === 'late') started.stop.abort();
    clearTimeout(timer);
  }

  private api(job: JobInfo): Api | null {
    if (!this.options.token || job.forge?.forge !== 'gitlab' || job.forge.project_id === undefined) return null;
    return new Gitlab({
      // gitbeaker adds /api/v4 itself.
      host: this.options.api_url.replace(/\/+$/, '').replace(/\/api\/v4$/, ''),
      token: this.options.token,
      queryTimeout: Math.max(1000, job.deadline - Date.now()),
    });
  }

  private async status(api: Api, job: JobInfo, state: StatusState, description: string, record: Record_, stop?: AbortSignal): Promise<void> {
    const { project_id: projectId, sha } = job.forge!;
    const outcome = await this.attempt(job, stop, () => api.Commits.editStatus(projectId!, sha, state, { name: STATUS_NAME, description, ...(job.url ? { targetUrl: job.url } : {}) }));
    record(this.outcome('commit-status', job, state, outcome));
  }

  /** One note per merge request: found again by its marker and edited; created the first time. */
  private async note(api: Api, job: JobInfo, result: AnalysisResult, record: Record_): Promise<void> {
    const { project_id: projectId, sha } = job.forge!;
    let target = `${job.forge!.repository}@${sha}`;
    const outcome = await this.attempt(job, undefined, async () => {
      const requests = (await api.Commits.allMergeRequests(projectId!, sha)) as { iid: number; state: string }[];
      const open = requests.find((r) => r.state === 'opened');
      if (!open) return 'none';
      target = `${job.forge!.repository}!${open.iid}`;
      const body = noteBody(result, sha, job.url);
      const notes = (await api.MergeRequestNotes.all(projectId!, open.iid, { perPage: 100, maxPages: 20 })) as { id: number; body: string }[];
      const mine = notes.find((n) => typeof n.body === 'string' && n.body.startsWith(NOTE_MARKER));
      if (mine) await api.MergeRequestNotes.edit(projectId!, open.iid, mine.id, { body });
      else await api.MergeRequestNotes.create(projectId!, open.iid, body);
      return mine ? 'updated' : 'created';
    });
    if (outcome.ok && outcome.value === 'none') return;
    record({ ...this.outcome('merge-request-note', job, outcome.ok ? String(outcome.value) : 'note', outcome), target });
  }

  /** A call with back-off on server errors and rate limits, within the job's time; 4xx recorded at once. */
  private async attempt<T>(job: JobInfo, stop: AbortSignal | undefined, call: () => Promise<T>): Promise<{ ok: true; value: T } | { ok: false; code: string; status: number | null; reason: string }> {
    for (let i = 0; ; i++) {
      try {
        return { ok: true, value: await call() };
      } catch (error) {
        const { code, status, retryAfterMs } = classify(error);
        const reason = describeRequestFailure(error);
        const wait = Math.max(retryAfterMs ?? 0, BACK_OFF_MS[i] ?? Infinity);
        const retryable = code === 'ERR_FORGE_UNAVAILABLE' || code === 'ERR_FORGE_RATE_LIMIT';
        if (!retryable || i >= BACK_OFF_MS.length || Date.now() + wait >= job.deadline || stop?.aborted) return { ok: false, code, status, reason };
        await new Promise((resolve) => {
          const timer = setTimeout(resolve, wait);
          stop?.addEventListener('abort', () => { clearTimeout(timer); resolve(undefined); }, { once: true });
        });
        if (stop?.aborted) return { ok: false, code, status, reason: `${reason}; stopped retrying when the final status went ahead` };
      }
    }
  }

  private outcome(kind: string, job: JobInfo, state: string, result: { ok: true } | { ok: false; code: string; status: number | null; reason: string }): ReportOutcome {
    if (!result.ok) this.logger.warn('GitLab report failed', { job_id: job.id, kind, state, error_code: result.code, reason: result.reason, status: result.status });
    return {
      reporter: 'report-gitlab',
      forge: 'gitlab',
      kind,
      target: `${job.forge!.repository}@${job.forge!.sha}`,
      state,
      ok: result.ok,
      error_code: result.ok ? null : result.code,
      ...(result.ok ? {} : { reason: result.reason }),
      at: new Date().toISOString(),
    };
  }
}

/** gitbeaker's errors: a request error carries the response; a retry error means it gave up on 429/502. */
function classify(error: unknown): { code: string; status: number | null; retryAfterMs: number | null } {
  const e = error as { name?: string; message?: string; cause?: { response?: Response } };
  const response = e?.cause?.response;
  const status = response?.status ?? null;
  const retryAfter = Number(response?.headers?.get?.('retry-after'));
  const retryAfterMs = Number.isFinite(retryAfter) && retryAfter >= 0 ? retryAfter * 1000 : null;
  if (e?.name === 'GitbeakerRetryError') return { code: /429/.test(e.message ?? '') ? 'ERR_FORGE_RATE_LIMIT' : 'ERR_FORGE_UNAVAILABLE', status: null, retryAfterMs: null };
  if (status === 429) return { code: 'ERR_FORGE_RATE_LIMIT', status, retryAfterMs };
  if (status === 401 || status === 403 || status === 404) return { code: 'ERR_FORGE_AUTH', status, retryAfterMs: null };
  if (status === null || status >= 500) return { code: 'ERR_FORGE_UNAVAILABLE', status, retryAfterMs };
  return { code: 'ERR_REPORTER_FAILED', status, retryAfterMs: null };
}
