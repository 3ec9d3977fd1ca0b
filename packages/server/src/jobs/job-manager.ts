import type { Engine, ResultCache } from '@cadence-detect/engine';
import { CadenceError } from '@cadence-detect/errors';
import type { Logger } from '@cadence-detect/logger';
import type { CadenceConfig } from '@cadence-detect/config';
import { forgeAuthorizationFor } from '@cadence-detect/organization';
import type { NetworkPolicy } from '@cadence-detect/network-guard';
import { AnalysisThreadPool, type AnalysisThreadsSpec } from './analysis-threads.js';
import type { ServerBackends } from '../backends/server-backends.js';
import type { ServerMetrics } from '../metrics.js';
import { isFinal, type Job, type ScanChild, type ScanProgress } from './job.js';
import { isoNow } from './iso-now.js';
import type { JobCancels } from './job-cancels.js';
import { JobCancelling } from './job-cancelling.js';
import type { JobEngine } from './job-engine.js';
import type { JobEvent, JobEventChannel } from './job-events.js';
import { JobIntake, type NewJob } from './job-intake.js';
import type { JobQueue } from './job-queue.js';
import { JobRecords } from './job-records.js';
import type { JobStore } from './job-store.js';
import { ReportWrites } from './report-writes.js';
import { RunningJobs } from './running-jobs.js';
import { RunningControllers } from './running-controllers.js';
import type { OrganizationResult } from '@cadence-detect/organization';

export type { NewJob } from './job-intake.js';

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
  /** The header git sends for a scan's repository job, from the forge plugin its record names; absent: none. */
  readonly gitAuthorizationFor?: (
    forge: string,
    url: string,
  ) => { readonly urlPrefix: string; readonly header: string } | null;
}

/**
 * The job machinery a server or a worker runs, composed of its parts (docs/architecture.md, the
 * job manager): intake and delivery claims (JobIntake), the state machine's records (JobRecords),
 * the jobs running here (RunningJobs), cancels across processes (JobCancelling) and reporters'
 * outcomes (ReportWrites). The routes call it; it only routes their calls and runs shutdown.
 */
export class JobManager {
  private readonly intake: JobIntake;
  private readonly records: JobRecords;
  private readonly cancelling: JobCancelling;
  private readonly runs: RunningJobs;
  private readonly startedAt = Date.now();
  private readonly stopListening: () => void;
  /** The work this process runs: the manager's alone; the parts get only what each needs of it. */
  private readonly running = new RunningControllers();

  constructor(private readonly options: JobManagerOptions) {
    // One child logger for all jobs (each line carries job_id): a child per job is garbage per request.
    const log = options.logger.child('jobs');
    const { store, queue, events, cancels, metrics } = options;
    const running = this.running;
    const records = new JobRecords(store, events, metrics, log);
    this.records = records;
    this.intake = new JobIntake(store, queue, log);
    this.cancelling = new JobCancelling({ store, queue, events, cancels, records, running });
    this.runs = new RunningJobs({
      ...options,
      records,
      cancelling: this.cancelling,
      reports: new ReportWrites(store, log),
      running,
      log,
      onRun: (seconds) => metrics.jobDuration.observe(seconds),
      gitAuthorizationFor: options.gitAuthorizationFor ?? (() => null),
    });
    metrics.readJobGaugesFrom({ activeJobs: () => this.runs.active, queueDepth: () => queue.depth() });
    // A cancel may be asked of any server; the process running the job is the one that aborts it.
    this.stopListening = this.cancelling.listen();
    queue.onWorkerLost((id) => void records.workerLost(id, new CadenceError('ERR_WORKER_LOST')));
    if (options.workers > 0) queue.consume(options.workers, (id) => this.runs.run(id));
  }

  /** Creates a queued job, or refuses (ERR_QUEUE_FULL, ERR_SHUTTING_DOWN) and creates nothing. */
  submit(spec: NewJob, beforeStart?: (job: Job) => void): Promise<Job> {
    return this.intake.submit(spec, beforeStart);
  }

  /** A forge's delivery: its job, or the job an earlier delivery of the same id created (JobIntake.receive). */
  receive(spec: NewJob, delivery: string): Promise<{ jobId: string; duplicate: boolean }> {
    return this.intake.receive(spec, delivery);
  }

  /**
   * Work of this process that is not a queued analysis (an organization job's scan), enrolled with
   * the controller that cancel (from any server) and shutdown trip. Returns the function that ends it.
   */
  track(id: string, controller: AbortController): () => void {
    const leave = this.running.enroll(id, controller);
    // As for a repository job: a cancel whose pub/sub message this process missed is read back.
    let stopWatching: (() => void) | null = null;
    let ended = false;
    void this.cancelling.watch(id, controller).then(
      (stop) => (ended ? stop() : (stopWatching = stop)),
      () => undefined,
    );
    return () => {
      ended = true;
      stopWatching?.();
      leave?.();
    };
  }

  /** An organization job's scan ended with its result: the record's transition, counted and published once. */
  organizationCompleted(id: string, organization: OrganizationResult): Promise<Job | undefined> {
    return this.records.completeOrganization(id, organization);
  }

  /** An organization job's scan stopped early (cancel, its time limit, shutdown, a failure): its end by the code. */
  organizationEnded(id: string, failure: CadenceError): Promise<Job | undefined> {
    return this.records.endOrganization(id, failure);
  }

  /** False once shutdown began: no new work is taken. */
  get accepting(): boolean {
    return this.intake.accepting;
  }

  /** A job's record as the store holds it (undefined: no such job). */
  read(id: string): Promise<Job | undefined> {
    return this.options.store.get(id);
  }

  /** Each event of a job as it is published (those it already had first); returns the unsubscribe. */
  subscribe(id: string, listener: (event: JobEvent) => void): () => void {
    return this.options.events.subscribe(id, listener);
  }

  /**
   * An organization job this process runs itself (its scan): recorded here, as every job is. The
   * manager is the one writer of job records and events; a scan asks it for each change below.
   */
  recordOrganization(job: Job): Promise<void> {
    return this.options.store.create(job).then(() => undefined);
  }

  /** A running scan says it is alive (a job whose server was killed is told apart by its silence). */
  async heartbeat(id: string): Promise<void> {
    await this.options.store.update(id, (j) => {
      if (j.kind === 'organization' && !isFinal(j.status)) j.heartbeat_at = isoNow();
    });
  }

  /** A scan's progress and children, as its record keeps them. */
  async recordScanProgress(id: string, progress: ScanProgress, children: ScanChild[]): Promise<void> {
    await this.options.store.update(id, (j) => {
      if (j.kind !== 'organization') return;
      j.progress = progress;
      j.children = children;
    });
  }

  /** An event of a job this process runs itself (a scan's `listed`, its repositories' progress). */
  publish(id: string, event: JobEvent): void {
    this.options.events.publish(id, event);
  }

  /** The job cancelled, wherever it runs (JobCancelling.cancel). */
  cancel(id: string, reason?: CadenceError, waitMs?: number): Promise<Job> {
    return this.cancelling.cancel(id, reason, waitMs);
  }

  /** What this process knows without asking the queue (what /health shows while Redis is away). */
  localHealth(): { jobs_processed: number; active_jobs: number; uptime_seconds: number } {
    return { jobs_processed: this.runs.processed, active_jobs: this.runs.active, uptime_seconds: this.uptimeSeconds() };
  }

  async health(): Promise<{
    jobs_processed: number;
    active_jobs: number;
    queue_depth: number;
    uptime_seconds: number;
  }> {
    return {
      jobs_processed: this.runs.processed,
      active_jobs: this.runs.active,
      queue_depth: await this.options.queue.depth(),
      uptime_seconds: this.uptimeSeconds(),
    };
  }

  /**
   * Stops taking jobs; lets running ones finish within `graceMs`, then stops them: handed back to
   * the shared queue for another worker, or (a queue of this process alone) cancelled with
   * ERR_SHUTTING_DOWN, like the jobs still waiting in it. Then the engine lets go of what it holds.
   */
  async shutdown(graceMs: number): Promise<void> {
    const { queue, engine } = this.options;
    this.intake.close();
    this.runs.beginShutdown();
    this.stopListening();
    const shuttingDown = new CadenceError('ERR_SHUTTING_DOWN');
    const stopped = queue.stop();
    for (const id of await queue.drain()) await this.records.cancelWaiting(id, shuttingDown);
    const timer = new Promise<void>((resolve) => setTimeout(resolve, graceMs).unref());
    await Promise.race([stopped, timer]);
    this.runs.abortAll(shuttingDown);
    await Promise.race([stopped, new Promise((resolve) => setTimeout(resolve, 5000).unref())]);
    await engine.close?.();
  }

  private uptimeSeconds(): number {
    return Math.floor((Date.now() - this.startedAt) / 1000);
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
  const threads = parts.workers > 0 && !backends.queue.shared ? parts.threads : undefined;
  return new JobManager({
    engine: threads ? new AnalysisThreadPool(threads, parts.workers, parts.logger.child('threads')) : parts.engine,
    store: backends.store,
    queue: backends.queue,
    events: backends.events,
    cancels: backends.cancels,
    cache: parts.cache,
    metrics: parts.metrics,
    logger: parts.logger,
    workers: parts.workers,
    jobTimeoutMs: config.limits.job_timeout_seconds * 1000,
    network: config.security.allow_private_networks
      ? null
      : { allowPrivateNetworks: false, allowedNetworks: config.security.allowed_networks },
    allowLocalPaths: config.security.allow_local_paths,
    publicUrl: config.server.public_url,
    // A scan's repository job names its forge; whichever process runs it asks that forge's plugin here.
    gitAuthorizationFor: (forge, url) =>
      forgeAuthorizationFor(parts.engine.plugins(), forge, url, parts.logger.child('forge')),
  });
}
