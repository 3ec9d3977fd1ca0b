import { redactUrl, type AnalysisRequest, type Engine, type EmittedEvent, type ResultCache } from '@cadence-detect/engine';
import { CadenceError, HttpError, toCadenceError } from '@cadence-detect/errors';
import type { Logger } from '@cadence-detect/logger';
import type { CadenceConfig } from '@cadence-detect/config';
import { AnalysisThreadPool, type AnalysisThreadsSpec, type JobEngine } from './analysis-threads.js';
import type { ServerBackends } from '../backends/server-backends.js';
import type { NetworkPolicy } from '@cadence-detect/network-guard';
import type { ServerMetrics } from '../metrics.js';
import type { ForgeTarget, JobInfo, ReportOutcome } from '@cadence-detect/plugin-sdk';
import { completeEvent, endEventOf, isFinal, MAX_REPORTS_PER_JOB, type Job, type JobSource } from './job.js';
import type { JobEvent, JobEventChannel } from './job-events.js';
import type { JobCancels } from './job-cancels.js';
import type { JobQueue } from './job-queue.js';
import type { JobStore } from './job-store.js';
import { newJobId } from './job-id.js';
import { isoNow } from './iso-now.js';
import { retainedResult } from './retained-result.js';

export interface JobManagerOptions {
  readonly engine: JobEngine;
  readonly store: JobStore;
  readonly queue: JobQueue;
  readonly events: JobEventChannel;
  readonly cancels: JobCancels;
  readonly cache: ResultCache;
  readonly metrics: ServerMetrics;
  readonly logger: Logger;
  /** Jobs this process runs at once; 0 for an intake-only server (`cadence webhook --workers 0`). */
  readonly workers: number;
  readonly jobTimeoutMs: number;
  readonly network: NetworkPolicy | null;
  readonly allowLocalPaths: boolean;
  /** `server.public_url`: reporters link to the job there. */
  readonly publicUrl: string | null;
}

export interface NewJob {
  readonly request: AnalysisRequest;
  readonly source: JobSource;
  readonly repo: string;
  readonly branch: string | null;
  /** A webhook's job: the forge commit its verdict is reported on. */
  readonly forge?: ForgeTarget | null;
}

/**
 * The state machine of docs/http-api.md (The job) and the worker pool: jobs wait in the queue, at most `workers`
 * run at once, each with an AbortController that cancel, the job timeout and shutdown trip: the
 * clone, git, fetches and AI calls all listen to its signal.
 */
export class JobManager {
  private readonly running = new Map<string, AbortController>();
  /** Each job's report recording, chained so outcomes land in the order reporters finished. */
  private readonly reportWrites = new Map<string, Promise<void>>();
  private readonly startedAt = Date.now();
  private processed = 0;
  private accepting = true;
  /** One child logger for all jobs (each line carries job_id): a child per job is garbage per request. */
  private readonly log: Logger;

  private readonly stopListening: () => void;

  constructor(private readonly options: JobManagerOptions) {
    this.log = options.logger.child('jobs');
    options.metrics.readJobGaugesFrom({ activeJobs: () => this.running.size, queueDepth: () => options.queue.depth() });
    // A cancel may be asked of any server; the process running the job is the one that aborts it.
    this.stopListening = options.cancels.listen((id, code) => this.running.get(id)?.abort(new CadenceError(code)));
    options.queue.onWorkerLost((id) => this.recordWorkerLost(id));
    if (options.workers > 0) options.queue.consume(options.workers, (id) => this.runJob(id));
  }

  /** Creates a queued job, or answers 503 overloaded and creates nothing. */
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
    throw HttpError.unavailable('The first delivery of this id did not finish creating its job; retry later');
  }

  /** Waits until the job a delivery first created is surely queued (or ran), or is gone. */
  private async stateOfEarlier(id: string, delivery: string): Promise<'queued' | 'gone'> {
    for (;;) {
      const job = await this.options.store.get(id);
      if (!job) return 'gone';
      if (job.status !== 'queued' || (await this.options.queue.holds(id))) return 'queued';
      if (Date.now() - Date.parse(job.created_at) > CLAIM_WAIT_MS) {
        // Recorded long ago and never queued: its server died between the two steps.
        await this.options.store.delete(id, delivery);
        return 'gone';
      }
      await new Promise((resolve) => setTimeout(resolve, CLAIM_POLL_MS));
    }
  }

  private async enqueue(spec: NewJob, delivery: string | undefined, beforeStart?: (job: Job) => void): Promise<{ job: Job } | { earlier: string }> {
    if (!this.accepting) throw overloaded('The server is shutting down');
    if (!(await this.options.queue.hasRoom())) throw overloaded();
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
    };
    const earlier = await this.options.store.create(job, delivery);
    if (earlier !== undefined) return { earlier };
    // A stream subscribes here, before a worker can emit the job's first event.
    beforeStart?.(job);
    let offered: boolean;
    try {
      offered = await this.options.queue.offer(job.id);
    } catch (error) {
      // The queue is away (Redis): the job never existed for anyone, and the delivery may come again.
      await this.options.store.delete(job.id, delivery).catch(() => undefined);
      throw error;
    }
    if (!offered) {
      // The queue filled between the check and the offer: the job never existed for anyone.
      await this.options.store.delete(job.id, delivery);
      throw overloaded();
    }
    this.log.info('job queued', { job_id: job.id, kind: job.kind, source: job.source, repo: job.repo });
    return { job };
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
    const here = this.running.get(id);
    if (here) here.abort(reason);
    else await this.options.cancels.request(id, reason.code);
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

  /** What this process knows without asking the queue (what /health shows while Redis is away). */
  localHealth(): { jobs_processed: number; active_jobs: number; uptime_seconds: number } {
    return { jobs_processed: this.processed, active_jobs: this.running.size, uptime_seconds: Math.floor((Date.now() - this.startedAt) / 1000) };
  }

  async health(): Promise<{ jobs_processed: number; active_jobs: number; queue_depth: number; uptime_seconds: number }> {
    return {
      jobs_processed: this.processed,
      active_jobs: this.running.size,
      queue_depth: await this.options.queue.depth(),
      uptime_seconds: Math.floor((Date.now() - this.startedAt) / 1000),
    };
  }

  /**
   * Stops taking jobs; lets running ones finish within `graceMs`, then stops them: handed back to
   * the shared queue for another worker, or (a queue of this process alone) cancelled with
   * ERR_SHUTTING_DOWN, like the jobs still waiting in it.
   */
  async shutdown(graceMs: number): Promise<void> {
    this.accepting = false;
    this.stopListening();
    const shuttingDown = new CadenceError('ERR_SHUTTING_DOWN');
    const stopped = this.options.queue.stop();
    for (const id of await this.options.queue.drain()) {
      const job = await this.options.store.update(id, (j) => this.finish(j, 'cancelled', shuttingDown));
      if (job) this.publishEnd(job);
    }
    const timer = new Promise<void>((resolve) => setTimeout(resolve, graceMs).unref());
    await Promise.race([stopped, timer]);
    for (const controller of this.running.values()) controller.abort(shuttingDown);
    await Promise.race([stopped, new Promise((resolve) => setTimeout(resolve, 5000).unref())]);
    if (this.options.engine instanceof AnalysisThreadPool) await this.options.engine.close();
  }

  /** One job, run by the queue's consumer: `hand-back` when shutdown stopped it and the queue is shared. */
  private async runJob(id: string): Promise<'done' | 'hand-back'> {
    // A shared queue that took this process's lock renewal for a stall hands the job out again; the
    // run already going here finishes it (and hears its cancel), so a second one is not started.
    if (this.running.has(id)) return 'done';
    const controller = new AbortController();
    this.running.set(id, controller);
    try {
      return await this.run(id, controller);
    } finally {
      this.running.delete(id);
    }
  }

  private async run(id: string, controller: AbortController): Promise<'done' | 'hand-back'> {
    const job = await this.options.store.update(id, (j) => {
      // A job cancelled or lost while it waited is not run.
      if (isFinal(j.status)) return;
      j.status = 'running';
      j.started_at = isoNow();
    });
    if (!job || job.status !== 'running') return 'done';
    this.log.info('job started', { job_id: id, kind: job.kind, repo: job.repo });
    // A cancel asked while no worker of this job was listening (Redis: a late subscription).
    const asked = await this.options.cancels.requested(id);
    if (asked) controller.abort(new CadenceError(asked));
    const started = performance.now();
    const timeout = setTimeout(() => controller.abort(new CadenceError('ERR_JOB_TIMEOUT', {
      message: `The job exceeded ${Math.round(this.options.jobTimeoutMs / 1000)} s`,
    })), this.options.jobTimeoutMs);
    // A shared queue's cancels travel by pub/sub, which a reconnecting subscriber misses: the
    // remembered request is also read every few seconds while the job runs.
    const recheck = this.options.queue.shared
      ? setInterval(() => {
          void this.options.cancels.requested(id).then((code) => {
            if (code && !controller.signal.aborted) controller.abort(new CadenceError(code));
          }, () => undefined);
        }, CANCEL_RECHECK_MS)
      : null;
    try {
      const result = await this.options.engine.analyze(job.request, {
        signal: controller.signal,
        onEvent: (event: EmittedEvent) => {
          this.options.events.publish(id, event as unknown as JobEvent);
          if (job.branch === null && event.event === 'fetch' && event.branch !== undefined) void this.recordBranch(id, event.branch);
        },
        network: this.options.network,
        allowLocalPaths: this.options.allowLocalPaths,
        job: this.jobInfo(job),
        onReport: (outcome) => this.queueReport(id, outcome),
        // A stream shows the analysis as it happens, so it always runs it rather than replaying a cached result.
        ...(job.source === 'stream' ? {} : { cache: this.options.cache }),
      });
      const done = await this.untilRecorded(id, () => this.options.store.update(id, (j) => {
        j.status = 'completed';
        j.finished_at = isoNow();
        j.result = retainedResult(result);
        if (j.branch === null && result.source_type === 'git') j.branch = result.branch;
      }));
      this.options.metrics.jobsTotal.inc({ status: 'completed' });
      this.log.info('job completed', { job_id: id, duration_ms: performance.now() - started, overall_score: result.overall_score });
      if (done) this.options.events.publish(id, completeEvent(id, result));
      return 'done';
    } catch (error) {
      const failure = toCadenceError(error);
      // Another worker takes it from the start: the job waits again rather than failing. Not a
      // stream's job: it lives for the client of this server's stream, which shutdown ends.
      if (failure.code === 'ERR_SHUTTING_DOWN' && !this.accepting && this.options.queue.shared && job.source !== 'stream') {
        await this.options.store.update(id, (j) => {
          j.status = 'queued';
          j.started_at = null;
        });
        this.log.info('job handed back', { job_id: id });
        return 'hand-back';
      }
      const status = failure.code === 'ERR_JOB_TIMEOUT' ? 'timeout' : failure.code === 'ERR_CANCELLED' || failure.code === 'ERR_SHUTTING_DOWN' ? 'cancelled' : 'failed';
      const ended = await this.untilRecorded(id, () => this.options.store.update(id, (j) => this.finish(j, status, failure)));
      if (status === 'failed') this.options.metrics.analysisErrors.inc();
      this.log.warn(`job ${status}`, { job_id: id, error_code: failure.code, error: failure.message, duration_ms: performance.now() - started });
      if (ended) this.publishEnd(ended);
      return 'done';
    } finally {
      clearTimeout(timeout);
      if (recheck) clearInterval(recheck);
      this.processed++;
      this.options.metrics.jobDuration.observe((performance.now() - started) / 1000);
    }
  }

  /** The queue gave up on a job whose worker stopped twice: failed with ERR_WORKER_LOST, once, by whichever process hears it first. */
  private async recordWorkerLost(id: string): Promise<void> {
    let changed = false;
    const job = await this.options.store.update(id, (j) => {
      if (isFinal(j.status)) return;
      this.finish(j, 'failed', new CadenceError('ERR_WORKER_LOST'));
      changed = true;
    }).catch(() => undefined);
    if (job && changed) {
      this.log.warn('job failed', { job_id: id, error_code: 'ERR_WORKER_LOST' });
      this.publishEnd(job);
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
    job.finished_at = isoNow();
    job.error = error.message;
    job.error_code = error.code;
    this.options.metrics.jobsTotal.inc({ status });
  }

  /**
   * A job's end is written even when the store is away for a while (Redis restarting): the outcome
   * waits, retried every 2 s for up to 5 minutes, rather than leaving the job `running` for ever.
   * Other errors (and a store still away after that) propagate as before.
   */
  private async untilRecorded<T>(id: string, write: () => Promise<T>): Promise<T> {
    const deadline = Date.now() + RECORD_RETRY_MS;
    for (let attempt = 0; ; attempt++) {
      try {
        return await write();
      } catch (error) {
        const away = error instanceof HttpError && error.error === 'unavailable';
        if (!away || Date.now() >= deadline) throw error;
        if (attempt === 0) this.log.warn('job outcome waits for the job store', { job_id: id });
        await new Promise((resolve) => setTimeout(resolve, 2000));
      }
    }
  }

  private jobInfo(job: Job): JobInfo {
    const base = this.options.publicUrl?.replace(/\/+$/, '');
    return { id: job.id, url: base ? `${base}/jobs/${encodeURIComponent(job.id)}` : null, forge: job.forge ?? null, deadline: Date.now() + this.options.jobTimeoutMs };
  }

  /**
   * Outcomes are written one after another per job: two writes racing through a shared store's
   * optimistic update would otherwise land in either order (a status's `running` after its `success`).
   */
  private queueReport(id: string, outcome: ReportOutcome): void {
    const previous = this.reportWrites.get(id) ?? Promise.resolve();
    const next = previous.then(() => this.recordReport(id, outcome));
    this.reportWrites.set(id, next);
    void next.then(() => {
      if (this.reportWrites.get(id) === next) this.reportWrites.delete(id);
    });
  }

  /** A reporter's outcome joins the job's record, also after the job has ended (reporters finish later). */
  private async recordReport(id: string, outcome: ReportOutcome): Promise<void> {
    try {
      await this.options.store.update(id, (j) => {
        const reports = j.reports ?? [];
        if (reports.length < MAX_REPORTS_PER_JOB) j.reports = [...reports, outcome];
      });
      const fields = { job_id: id, reporter: outcome.reporter, forge: outcome.forge, kind: outcome.kind, target: outcome.target, state: outcome.state, ok: outcome.ok, error_code: outcome.error_code };
      if (outcome.ok) this.log.info('report sent', fields);
      else this.log.warn('report failed', fields);
    } catch (error) {
      this.log.warn('could not record a report', { job_id: id, error: String((error as Error)?.message ?? error) });
    }
  }

  private publishEnd(job: Job): void {
    this.options.events.publish(job.id, endEventOf(job));
  }
}

/** The job manager a server or a worker process runs, built one way from the configuration. */
export function jobManagerFor(parts: {
  config: CadenceConfig;
  engine: Engine;
  logger: Logger;
  backends: ServerBackends;
  metrics: ServerMetrics;
  cache: ResultCache;
  workers: number;
  /** With the memory backend, analyses run in this many worker threads built from this module. */
  threads?: AnalysisThreadsSpec | undefined;
}): JobManager {
  const { config, backends } = parts;
  const inThreads = parts.threads && parts.workers > 0 && !backends.queue.shared;
  return new JobManager({
    engine: inThreads ? new AnalysisThreadPool(parts.threads!, parts.workers, parts.logger.child('threads')) : parts.engine,
    store: backends.store,
    queue: backends.queue,
    events: backends.events,
    cancels: backends.cancels,
    cache: parts.cache,
    metrics: parts.metrics,
    logger: parts.logger,
    workers: parts.workers,
    jobTimeoutMs: config.limits.job_timeout_seconds * 1000,
    network: config.security.allow_private_networks ? null : { allowPrivateNetworks: false, allowedNetworks: config.security.allowed_networks },
    allowLocalPaths: config.security.allow_local_paths,
    publicUrl: config.server.public_url,
  });
}

/** How often a running job of a shared queue looks for a cancel its process may not have heard. */
const CANCEL_RECHECK_MS = 2000;

/** How long a finished job's outcome waits for an unavailable job store. */
const RECORD_RETRY_MS = 5 * 60_000;

/** How long a cancel waits for a running job to unwind before answering with what the store holds. */
const CANCEL_WAIT_MS = 2000;

/** A redelivery waits this long for the first delivery's job to be queued, polling this often. */
const CLAIM_WAIT_MS = 10_000;
const CLAIM_POLL_MS = 50;

/** 503 `overloaded`: the queue is full, or the server is shutting down; either way, retry in 30 s. */
function overloaded(message = 'Too many jobs are waiting; retry later'): HttpError {
  return new HttpError(503, 'overloaded', message, { extra: { retry_after: 30 }, headers: { 'Retry-After': '30' } });
}


