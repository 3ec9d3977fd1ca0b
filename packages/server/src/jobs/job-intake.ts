import { redactUrl, type AnalysisRequest } from '@cadence-detect/engine';
import { CadenceError } from '@cadence-detect/errors';
import type { Logger } from '@cadence-detect/logger';
import type { ForgeTarget } from '@cadence-detect/plugin-sdk';
import type { Job, JobSource } from './job.js';
import type { JobQueue } from './job-queue.js';
import type { JobStore } from './job-store.js';
import { newJobId } from './job-id.js';
import { isoNow } from './iso-now.js';

export interface NewJob {
  readonly request: AnalysisRequest;
  readonly source: JobSource;
  readonly repo: string;
  readonly branch: string | null;
  /** A webhook's job: the forge commit its verdict is reported on. */
  readonly forge?: ForgeTarget | null;
  /** A scan's repository job: its organization job, and the forge whose plugin gives git its credentials. */
  readonly parentId?: string;
  readonly gitCredentials?: string;
}

/** A redelivery waits this long for the first delivery's job to be queued, polling this often. */
const CLAIM_WAIT_MS = 10_000;
const CLAIM_POLL_MS = 50;

/**
 * Jobs coming in: each recorded as `queued` and offered to the queue, or refused with nothing left
 * behind (ERR_QUEUE_FULL, ERR_SHUTTING_DOWN); a forge's delivery claimed with its job, so a
 * redelivery gets the first delivery's job.
 */
export class JobIntake {
  private open = true;

  get accepting(): boolean {
    return this.open;
  }

  constructor(
    private readonly store: JobStore,
    private readonly queue: JobQueue,
    private readonly log: Logger,
  ) {}

  /** Refuses every job from now on (shutdown). */
  close(): void {
    this.open = false;
  }

  /** Creates a queued job, or refuses (ERR_QUEUE_FULL, ERR_SHUTTING_DOWN) and creates nothing. */
  async submit(spec: NewJob, beforeStart?: (job: Job) => void): Promise<Job> {
    const created = await this.enqueue(spec, undefined, beforeStart);
    if (!('job' in created)) throw new Error('a job without a delivery id cannot have an earlier one');
    return created.job;
  }

  /**
   * A forge's delivery (docs/http-api.md, POST /webhooks/github): a queued job, unless a job was already created for
   * `delivery` (by this server or another), whose id a redelivery gets instead. Its claim is
   * recorded with the job in one step (JobStore.create), so a webhook costs no extra round trip.
   * The earlier job is answered only once it is surely queued: a redelivery arriving while the
   * first is still between its record and the queue waits, and one whose first attempt failed
   * (its record deleted, or left queued by a server that died) takes the delivery over.
   */
  async receive(spec: NewJob, delivery: string): Promise<{ jobId: string; duplicate: boolean }> {
    let earlierGone: string | null = null;
    for (let attempt = 0; attempt < 3; attempt++) {
      const created = await this.enqueue(spec, delivery);
      if ('job' in created) return { jobId: created.job.id, duplicate: false };
      const { earlier } = created;
      const state = await this.stateOfEarlier(earlier, delivery);
      if (state === 'queued') return { jobId: earlier, duplicate: true };
      // Gone twice under the same claim: the job was kept its TTL and expired; the claim outlives it.
      if (earlierGone === earlier) return { jobId: earlier, duplicate: true };
      earlierGone = earlier;
    }
    throw new CadenceError('ERR_DELIVERY_IN_PROGRESS');
  }

  /** Waits until the job a delivery first created is surely queued (or ran), or is gone. */
  private async stateOfEarlier(id: string, delivery: string): Promise<'queued' | 'gone'> {
    for (;;) {
      const job = await this.store.get(id);
      if (!job) return 'gone';
      if (job.status !== 'queued' || (await this.queue.holds(id))) return 'queued';
      if (Date.now() - Date.parse(job.created_at) > CLAIM_WAIT_MS) {
        // Recorded long ago and never queued: its server died between the two steps.
        await this.store.delete(id, delivery);
        return 'gone';
      }
      await new Promise((resolve) => setTimeout(resolve, CLAIM_POLL_MS));
    }
  }

  private async enqueue(
    spec: NewJob,
    delivery: string | undefined,
    beforeStart?: (job: Job) => void,
  ): Promise<{ job: Job } | { earlier: string }> {
    if (!this.open) throw new CadenceError('ERR_SHUTTING_DOWN');
    if (!(await this.queue.hasRoom())) throw new CadenceError('ERR_QUEUE_FULL');
    const now = isoNow();
    const job: Job = {
      id: newJobId(),
      status: 'queued',
      kind: spec.request.kind,
      source: spec.source,
      repo: spec.repo,
      branch: spec.branch,
      // Shown by every job view; the request, which the worker clones with, keeps the credentials.
      url: redactUrl(spec.request.url),
      created_at: now,
      started_at: null,
      finished_at: null,
      error: null,
      error_code: null,
      request: spec.request,
      ...(spec.forge ? { forge: spec.forge } : {}),
      ...(spec.parentId ? { parent_id: spec.parentId } : {}),
      ...(spec.gitCredentials ? { git_credentials: spec.gitCredentials } : {}),
    };
    const earlier = await this.store.create(job, delivery);
    if (earlier !== undefined) return { earlier };
    // A stream subscribes here, before a worker can emit the job's first event.
    beforeStart?.(job);
    let offered: boolean;
    try {
      offered = await this.queue.offer(job.id);
    } catch (error) {
      // The queue is away (Redis): the job never existed for anyone, and the delivery may come again.
      await this.store.delete(job.id, delivery).catch(() => undefined);
      throw error;
    }
    if (!offered) {
      // The queue filled between the check and the offer: the job never existed for anyone.
      await this.store.delete(job.id, delivery);
      throw new CadenceError('ERR_QUEUE_FULL');
    }
    this.log.info('job queued', { job_id: job.id, kind: job.kind, source: job.source, repo: job.repo });
    return { job };
  }
}
