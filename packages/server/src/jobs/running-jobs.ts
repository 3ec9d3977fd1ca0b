import type { AnalysisRequest, AnalyzeOptions, EmittedEvent, ResultCache } from '@cadence-detect/engine';
import { CadenceError, toCadenceError } from '@cadence-detect/errors';
import type { Logger } from '@cadence-detect/logger';
import type { NetworkPolicy } from '@cadence-detect/network-guard';
import type { AnalysisResult, JobInfo } from '@cadence-detect/plugin-sdk';
import type { Job } from './job.js';
import type { JobCancelling } from './job-cancelling.js';
import type { JobEngine } from './job-engine.js';
import type { JobEventChannel } from './job-events.js';
import type { JobQueue } from './job-queue.js';
import type { JobRecords } from './job-records.js';
import type { ReportWrites } from './report-writes.js';
import type { RunningControllers } from './running-controllers.js';

export interface RunningJobsParts {
  readonly engine: JobEngine;
  readonly queue: JobQueue;
  readonly events: JobEventChannel;
  readonly records: JobRecords;
  readonly cancelling: JobCancelling;
  readonly reports: ReportWrites;
  readonly cache: ResultCache;
  /** This process's running work (the job manager's): each job enrolls its controller while it runs. */
  readonly running: Pick<RunningControllers, 'enroll' | 'abortAll' | 'size'>;
  readonly log: Logger;
  readonly jobTimeoutMs: number;
  readonly network: NetworkPolicy | null;
  readonly allowLocalPaths: boolean;
  readonly publicUrl: string | null;
  /** The header git sends for a scan's repository job, from the forge plugin its record names (never stored). */
  readonly gitAuthorizationFor: (forge: string, url: string) => AnalyzeOptions['gitAuthorization'] | null;
  /** Called with each job's duration once it has run (the duration histogram). */
  readonly onRun: (seconds: number) => void;
}

/**
 * The jobs this process runs, as the queue's consumer hands them over: each with an AbortController
 * that cancel, the job timeout and shutdown trip (the clone, git, fetches and AI calls all listen
 * to its signal), its analysis events published, its reports recorded, its outcome recorded.
 */
export class RunningJobs {
  private processedCount = 0;
  private shuttingDown = false;

  constructor(private readonly parts: RunningJobsParts) {}

  get processed(): number {
    return this.processedCount;
  }

  get active(): number {
    return this.parts.running.size;
  }

  /** From now on a job stopped by ERR_SHUTTING_DOWN on a shared queue goes back to it. */
  beginShutdown(): void {
    this.shuttingDown = true;
  }

  abortAll(reason: CadenceError): void {
    this.parts.running.abortAll(reason);
  }

  /** One job, run by the queue's consumer: `hand-back` when shutdown stopped it and the queue is shared. */
  async run(id: string): Promise<'done' | 'hand-back'> {
    // A shared queue that took this process's lock renewal for a stall hands the job out again; the
    // run already going here finishes it (and hears its cancel), so a second one is not started.
    const controller = new AbortController();
    const leave = this.parts.running.enroll(id, controller);
    if (!leave) return 'done';
    try {
      return await this.runStarted(id, controller);
    } finally {
      leave();
    }
  }

  private async runStarted(id: string, controller: AbortController): Promise<'done' | 'hand-back'> {
    const { records, cancelling, jobTimeoutMs } = this.parts;
    const job = await records.start(id);
    if (!job) return 'done';
    const stopWatching = await cancelling.watch(id, controller);
    const started = performance.now();
    const timeout = setTimeout(
      () =>
        controller.abort(
          new CadenceError('ERR_JOB_TIMEOUT', {
            message: `The job exceeded ${Math.round(jobTimeoutMs / 1000)} s`,
          }),
        ),
      jobTimeoutMs,
    );
    try {
      const result = await this.analyze(job, controller.signal);
      await records.complete(id, result, performance.now() - started);
      return 'done';
    } catch (error) {
      const failure = toCadenceError(error);
      // Another worker takes it from the start: the job waits again rather than failing. Not a
      // stream's job: it lives for the client of this server's stream, which shutdown ends.
      if (
        failure.code === 'ERR_SHUTTING_DOWN' &&
        this.shuttingDown &&
        this.parts.queue.shared &&
        job.source !== 'stream'
      ) {
        await records.handBack(id);
        return 'hand-back';
      }
      await records.fail(id, failure, performance.now() - started);
      return 'done';
    } finally {
      clearTimeout(timeout);
      stopWatching();
      this.processedCount++;
      this.parts.onRun((performance.now() - started) / 1000);
    }
  }

  private async analyze(job: Job, signal: AbortSignal): Promise<AnalysisResult> {
    const { engine, events, records, reports } = this.parts;
    // An organization job is run by its scan, in the server that accepted it; never by a worker.
    if (job.request.kind === 'organization')
      throw new CadenceError('ERR_INTERNAL', { message: 'an organization job is not an analysis' });
    const request: AnalysisRequest = job.request;
    const authorization = job.git_credentials ? this.parts.gitAuthorizationFor(job.git_credentials, request.url) : null;
    return engine.analyze(request, {
      signal,
      onEvent: (event: EmittedEvent) => {
        events.publish(job.id, event);
        if (job.branch === null && event.event === 'fetch' && event.branch !== undefined)
          void records.recordBranch(job.id, event.branch);
      },
      network: this.parts.network,
      allowLocalPaths: this.parts.allowLocalPaths,
      job: this.jobInfo(job),
      onReport: (outcome) => reports.queue(job.id, outcome),
      // A stream shows the analysis as it happens, so it always runs it rather than replaying a cached result.
      ...(job.source === 'stream' ? {} : { cache: this.parts.cache }),
      ...(authorization ? { gitAuthorization: authorization } : {}),
    });
  }

  private jobInfo(job: Job): JobInfo {
    const base = this.parts.publicUrl?.replace(/\/+$/, '');
    return {
      id: job.id,
      url: base ? `${base}/jobs/${encodeURIComponent(job.id)}` : null,
      forge: job.forge ?? null,
      deadline: Date.now() + this.parts.jobTimeoutMs,
    };
  }
}
