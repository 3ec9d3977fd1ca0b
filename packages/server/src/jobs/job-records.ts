import { jobErrorCode, type CadenceError, type OperationalCode } from '@cadence-detect/errors';
import type { Logger } from '@cadence-detect/logger';
import type { OrganizationResult } from '@cadence-detect/organization';
import type { AnalysisResult } from '@cadence-detect/plugin-sdk';
import type { ServerMetrics } from '../metrics.js';
import { completeEvent, endEventOf, isFinal, type Job } from './job.js';
import type { JobEventChannel } from './job-events.js';
import type { JobStore } from './job-store.js';
import { isoNow } from './iso-now.js';
import { retainedResult } from './retained-result.js';
import { untilRecorded } from './store-outage.js';

export type EndStatus = 'failed' | 'cancelled' | 'timeout';

/** The status a job ends in for the code it stopped with (docs/http-api.md, The job). */
export function endStatusFor(code: OperationalCode): EndStatus {
  if (code === 'ERR_JOB_TIMEOUT') return 'timeout';
  return code === 'ERR_CANCELLED' || code === 'ERR_SHUTTING_DOWN' ? 'cancelled' : 'failed';
}

/**
 * The state machine of docs/http-api.md (The job), as writes to the job store: `queued` →
 * `running` → `completed` | `failed` | `cancelled` | `timeout`, and `running` → `queued` when a
 * shutdown hands a job to another worker. Each end is counted (`cadence_jobs_total`) and published
 * as the job's last event; an analysis's outcome waits out a store outage (store-outage.ts).
 */
export class JobRecords {
  constructor(
    private readonly store: JobStore,
    private readonly events: JobEventChannel,
    private readonly metrics: ServerMetrics,
    private readonly log: Logger,
  ) {}

  /** `queued` → `running`; undefined when the job is gone or already ended (cancelled or lost while it waited). */
  async start(id: string): Promise<Job | undefined> {
    // A worker can take a job from the queue just before Redis goes away: the job starts once the
    // store is back rather than failing the queue's copy while its record still says `queued`.
    const job = await untilRecorded(
      () =>
        this.store.update(id, (j) => {
          if (isFinal(j.status)) return;
          j.status = 'running';
          j.started_at = isoNow();
        }),
      this.log,
      id,
    );
    if (job?.status !== 'running') return undefined;
    this.log.info('job started', { job_id: id, kind: job.kind, repo: job.repo });
    return job;
  }

  /** `running` → `completed` with the retained result; the `complete` event is published once recorded. */
  async complete(id: string, result: AnalysisResult, durationMs: number): Promise<void> {
    const done = await untilRecorded(
      () =>
        this.store.update(id, (j) => {
          if (j.kind === 'organization') return;
          j.status = 'completed';
          j.finished_at = isoNow();
          j.result = retainedResult(result);
          if (j.branch === null && result.source_type === 'git') j.branch = result.branch;
        }),
      this.log,
      id,
    );
    this.metrics.jobsTotal.inc({ status: 'completed' });
    this.log.info('job completed', { job_id: id, duration_ms: durationMs, overall_score: result.overall_score });
    if (done) this.events.publish(id, completeEvent(id, result));
  }

  /** A running job's analysis stopped with `failure`: its end, by the failure's code. */
  async fail(id: string, failure: CadenceError, durationMs: number): Promise<void> {
    const status = endStatusFor(failure.code);
    const ended = await untilRecorded(
      () => this.store.update(id, (j) => this.finish(j, status, failure)),
      this.log,
      id,
    );
    if (status === 'failed') this.metrics.analysisErrors.inc();
    this.log.warn(`job ${status}`, {
      job_id: id,
      error_code: failure.code,
      error: failure.message,
      duration_ms: durationMs,
    });
    if (ended) this.publishEnd(ended);
  }

  /** A job that never ran (taken off the queue) ends `cancelled` with `reason`. */
  async cancelWaiting(id: string, reason: CadenceError): Promise<Job | undefined> {
    const cancelled = await this.store.update(id, (j) => this.finish(j, 'cancelled', reason));
    if (cancelled) this.publishEnd(cancelled);
    return cancelled;
  }

  /** `running` → `queued`: another worker takes the job from the start. */
  async handBack(id: string): Promise<void> {
    await this.store.update(id, (j) => {
      j.status = 'queued';
      j.started_at = null;
    });
    this.log.info('job handed back', { job_id: id });
  }

  /** The queue gave up on a job whose worker stopped twice: failed with `lost`, once, by whichever process hears it first. */
  async workerLost(id: string, lost: CadenceError): Promise<void> {
    let changed = false;
    const job = await this.store
      .update(id, (j) => {
        if (isFinal(j.status)) return;
        this.finish(j, 'failed', lost);
        changed = true;
      })
      // The record is final already or the store is away: whoever reads the lost job next ends it.
      .catch(() => undefined);
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- Set in a callback TypeScript does not follow
    if (!job || !changed) return;
    this.log.warn('job failed', { job_id: id, error_code: lost.code });
    this.publishEnd(job);
  }

  /**
   * An organization job's scan ended with its result (the scan is its runner, in the server that
   * accepted it): `running` → `completed`, counted and published once, waiting out a store outage.
   */
  async completeOrganization(id: string, organization: OrganizationResult): Promise<Job | undefined> {
    let changed = false;
    const recorded = await untilRecorded(
      () =>
        this.store.update(id, (j) => {
          if (isFinal(j.status) || j.kind !== 'organization') return;
          j.status = 'completed';
          j.finished_at = isoNow();
          j.organization = organization;
          changed = true;
        }),
      this.log,
      id,
    );
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- Set in a callback TypeScript does not follow
    if (recorded && changed) {
      this.metrics.jobsTotal.inc({ status: 'completed' });
      this.events.publish(id, {
        event: 'complete',
        type: 'complete',
        job_id: id,
        progress: recorded.kind === 'organization' ? recorded.progress : undefined,
        result: organization,
      });
    }
    return recorded;
  }

  /** An organization job's scan stopped before its result: its end by the failure's code, counted and published once. */
  async endOrganization(id: string, failure: CadenceError): Promise<Job | undefined> {
    const status = endStatusFor(failure.code);
    let changed = false;
    const ended = await untilRecorded(
      () =>
        this.store.update(id, (j) => {
          if (isFinal(j.status)) return;
          this.finish(j, status, failure);
          changed = true;
        }),
      this.log,
      id,
    );
    this.log.warn(`organization scan ${status}`, { job_id: id, error_code: failure.code, error: failure.message });
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- Set in a callback TypeScript does not follow
    if (ended && changed) this.publishEnd(ended);
    return ended;
  }

  /** A request that named no branch shows the one the clone checked out, as soon as it is known. */
  async recordBranch(id: string, branch: string): Promise<void> {
    await this.store
      .update(id, (j) => {
        if (j.branch === null) j.branch = branch;
      })
      .catch((error: unknown) => this.log.warn('could not record the branch', { job_id: id, error: String(error) }));
  }

  private finish(job: Job, status: EndStatus, error: CadenceError): void {
    job.status = status;
    job.finished_at = isoNow();
    job.error = error.message;
    // API clients match on the interface's codes: the engine's finer one is kept as the reason.
    const shown = jobErrorCode(error.code);
    job.error_code = shown.code;
    job.error_reason = shown.reason;
    this.metrics.jobsTotal.inc({ status });
  }

  private publishEnd(job: Job): void {
    this.events.publish(job.id, endEventOf(job));
  }
}
