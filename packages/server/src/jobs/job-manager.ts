import { randomUUID } from 'node:crypto';
import { redactUrl, type AnalysisRequest, type Engine, type EmittedEvent } from '@cadence/engine';
import { CadenceError, HttpError, toCadenceError } from '@cadence/errors';
import type { Logger } from '@cadence/logger';
import type { NetworkPolicy } from '@cadence/network-guard';
import type { ServerMetrics } from '../metrics.js';
import type { SizedResultCache } from '../result-cache.js';
import { isFinal, type Job, type JobSource } from './job.js';
import type { JobEvent, JobEventChannel } from './job-events.js';
import type { JobQueue } from './job-queue.js';
import type { JobStore } from './job-store.js';
import { retainedResult } from './retained-result.js';

export interface JobManagerOptions {
  readonly engine: Engine;
  readonly store: JobStore;
  readonly queue: JobQueue;
  readonly events: JobEventChannel;
  readonly cache: SizedResultCache;
  readonly metrics: ServerMetrics;
  readonly logger: Logger;
  readonly workers: number;
  readonly jobTimeoutMs: number;
  readonly network: NetworkPolicy | null;
  readonly allowLocalPaths: boolean;
}

export interface NewJob {
  readonly request: AnalysisRequest;
  readonly source: JobSource;
  readonly repo: string;
  readonly branch: string | null;
}

/**
 * The state machine of decisions §2 and the worker pool: jobs wait in the queue, at most `workers`
 * run at once, each with an AbortController that cancel, the job timeout and shutdown trip: the
 * clone, git, fetches and AI calls all listen to its signal.
 */
export class JobManager {
  private readonly running = new Map<string, AbortController>();
  private readonly startedAt = Date.now();
  private processed = 0;
  private accepting = true;
  private readonly idleWaiters: (() => void)[] = [];
  /** One child logger for all jobs (each line carries job_id): a child per job is garbage per request. */
  private readonly log: Logger;

  constructor(private readonly options: JobManagerOptions) {
    this.log = options.logger.child('jobs');
    options.metrics.readJobGaugesFrom({ activeJobs: () => this.running.size, queueDepth: () => options.queue.depth() });
  }

  /** Creates a queued job, or answers 503 overloaded and creates nothing. */
  async submit(spec: NewJob, beforeStart?: (job: Job) => void): Promise<Job> {
    if (!this.accepting) throw new HttpError(503, 'overloaded', 'The server is shutting down', { extra: { retry_after: 30 }, headers: { 'Retry-After': '30' } });
    if (!(await this.options.queue.hasRoom())) throw overloaded();
    const now = new Date().toISOString();
    const job: Job = {
      id: randomUUID(),
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
    };
    await this.options.store.create(job);
    // A stream subscribes here, before a worker can emit the job's first event.
    beforeStart?.(job);
    if (!(await this.options.queue.offer(job.id))) {
      // The queue filled between the check and the offer: the job never existed for anyone.
      await this.options.store.delete(job.id);
      throw overloaded();
    }
    this.log.info('job queued', { job_id: job.id, kind: job.kind, source: job.source, repo: job.repo });
    // Started after the current I/O callbacks: the 202 goes out before the job's work begins.
    setImmediate(() => void this.pump());
    return job;
  }

  /** Decisions §2: 200 with the cancelled job; 409 when final; 404 when unknown. */
  async cancel(id: string, reason: CadenceError = new CadenceError('ERR_CANCELLED')): Promise<Job> {
    const job = await this.options.store.get(id);
    if (!job) throw HttpError.notFound(`No job ${id}`);
    if (isFinal(job.status)) throw new HttpError(409, 'conflict', `Job ${id} is already ${job.status}`);
    if (await this.options.queue.remove(id)) {
      const cancelled = await this.options.store.update(id, (j) => this.finish(j, 'cancelled', reason));
      this.publishEnd(cancelled!);
      return cancelled!;
    }
    // The worker records the final state when the analysis unwinds, then publishes the job's end:
    // wait for that event (subscribed before the abort, so it cannot be missed), at most CANCEL_WAIT_MS.
    const ended = this.endOf(id, CANCEL_WAIT_MS);
    this.running.get(id)?.abort(reason);
    await ended;
    return (await this.options.store.get(id)) ?? job;
  }

  /** Resolves when the job's `complete` or `error` event is published, or after `timeoutMs`. */
  private endOf(id: string, timeoutMs: number): Promise<void> {
    return new Promise((resolve) => {
      let unsubscribe = (): void => undefined;
      const done = (): void => {
        clearTimeout(timer);
        unsubscribe();
        resolve();
      };
      const timer = setTimeout(done, timeoutMs);
      unsubscribe = this.options.events.subscribe(id, (event) => {
        if (event.event === 'complete' || event.event === 'error') done();
      });
    });
  }

  async health(): Promise<{ jobs_processed: number; active_jobs: number; queue_depth: number; uptime_seconds: number }> {
    return {
      jobs_processed: this.processed,
      active_jobs: this.running.size,
      queue_depth: await this.options.queue.depth(),
      uptime_seconds: Math.floor((Date.now() - this.startedAt) / 1000),
    };
  }

  /** Stops taking jobs; lets running ones finish within `graceMs`, then cancels them with ERR_SHUTTING_DOWN. */
  async shutdown(graceMs: number): Promise<void> {
    this.accepting = false;
    const shuttingDown = new CadenceError('ERR_SHUTTING_DOWN');
    for (let id = await this.options.queue.take(); id; id = await this.options.queue.take()) {
      const job = await this.options.store.update(id, (j) => this.finish(j, 'cancelled', shuttingDown));
      if (job) this.publishEnd(job);
    }
    const idle = this.whenIdle();
    const timer = new Promise<void>((resolve) => setTimeout(resolve, graceMs).unref());
    await Promise.race([idle, timer]);
    for (const controller of this.running.values()) controller.abort(shuttingDown);
    await Promise.race([this.whenIdle(), new Promise((resolve) => setTimeout(resolve, 5000).unref())]);
  }

  private whenIdle(): Promise<void> {
    if (this.running.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private async pump(): Promise<void> {
    while (this.accepting && this.running.size < this.options.workers) {
      const id = await this.options.queue.take();
      if (!id) break;
      const controller = new AbortController();
      this.running.set(id, controller);
      void this.run(id, controller).finally(() => {
        this.running.delete(id);
        if (this.running.size === 0) for (const resolve of this.idleWaiters.splice(0)) resolve();
        void this.pump();
      });
    }
  }

  private async run(id: string, controller: AbortController): Promise<void> {
    const job = await this.options.store.update(id, (j) => {
      j.status = 'running';
      j.started_at = new Date().toISOString();
    });
    if (!job) return;
    const started = performance.now();
    const timeout = setTimeout(() => controller.abort(new CadenceError('ERR_JOB_TIMEOUT', {
      message: `The job exceeded ${Math.round(this.options.jobTimeoutMs / 1000)} s`,
    })), this.options.jobTimeoutMs);
    try {
      const result = await this.options.engine.analyze(job.request, {
        signal: controller.signal,
        onEvent: (event: EmittedEvent) => {
          this.options.events.publish(id, event as unknown as JobEvent);
          if (job.branch === null && event.event === 'fetch' && event.branch !== undefined) void this.recordBranch(id, event.branch);
        },
        network: this.options.network,
        allowLocalPaths: this.options.allowLocalPaths,
        // A stream shows the analysis as it happens, so it always runs it rather than replaying a cached result.
        ...(job.source === 'stream' ? {} : { cache: this.options.cache }),
      });
      const done = await this.options.store.update(id, (j) => {
        j.status = 'completed';
        j.finished_at = new Date().toISOString();
        j.result = retainedResult(result);
        if (j.branch === null && result.source_type === 'git') j.branch = result.branch;
      });
      this.options.metrics.jobsTotal.inc({ status: 'completed' });
      this.log.info('job completed', { job_id: id, duration_ms: performance.now() - started, overall_score: result.overall_score });
      if (done) this.options.events.publish(id, completeEvent(id, result));
    } catch (error) {
      const failure = toCadenceError(error);
      const status = failure.code === 'ERR_JOB_TIMEOUT' ? 'timeout' : failure.code === 'ERR_CANCELLED' || failure.code === 'ERR_SHUTTING_DOWN' ? 'cancelled' : 'failed';
      const ended = await this.options.store.update(id, (j) => this.finish(j, status, failure));
      if (status === 'failed') this.options.metrics.analysisErrors.inc();
      this.log.warn(`job ${status}`, { job_id: id, error_code: failure.code, error: failure.message, duration_ms: performance.now() - started });
      if (ended) this.publishEnd(ended);
    } finally {
      clearTimeout(timeout);
      this.processed++;
      this.options.metrics.jobDuration.observe((performance.now() - started) / 1000);
    }
  }

  /** A request that named no branch shows the one the clone checked out, as soon as it is known. */
  private async recordBranch(id: string, branch: string): Promise<void> {
    await this.options.store.update(id, (j) => {
      if (j.branch === null) j.branch = branch;
    }).catch((error: unknown) => this.log.warn('could not record the branch', { job_id: id, error: String(error) }));
  }

  private finish(job: Job, status: 'failed' | 'cancelled' | 'timeout', error: CadenceError): void {
    job.status = status;
    job.finished_at = new Date().toISOString();
    job.error = error.message;
    job.error_code = error.code;
    this.options.metrics.jobsTotal.inc({ status });
  }

  private publishEnd(job: Job): void {
    this.options.events.publish(job.id, { event: 'error', type: 'error', error: job.error_code ?? 'ERR_INTERNAL', message: job.error ?? 'failed', job_id: job.id, status: job.status });
  }
}

/** How long a cancel waits for a running job to unwind before answering with what the store holds. */
const CANCEL_WAIT_MS = 2000;

function overloaded(): HttpError {
  return new HttpError(503, 'overloaded', 'Too many jobs are waiting; retry later', { extra: { retry_after: 30 }, headers: { 'Retry-After': '30' } });
}

function completeEvent(jobId: string, result: import('@cadence/plugin-sdk').AnalysisResult): JobEvent {
  const counts = result.source_type === 'git' ? { suspicious_count: result.suspicious_commits } : { strategies_triggered: result.strategies_triggered };
  return { event: 'complete', type: 'complete', job_id: jobId, ...counts, overall_score: result.overall_score, result };
}
