import { CadenceError, errorMessage, toCadenceError } from '@cadence-detect/errors';
import type { Logger } from '@cadence-detect/logger';
import type { LoadedPlugin } from '@cadence-detect/plugin-loader';
import type { AssessmentBands } from '@cadence-detect/plugin-sdk';
import type { Job, OrganizationRequest } from '../jobs/job.js';
import type { JobManager } from '../jobs/job-manager.js';
import { newJobId } from '../jobs/job-id.js';
import { isoNow } from '../jobs/iso-now.js';
import { runOrganizationScan } from './organization-scan.js';

/** How often a running scan marks its organization job alive. */
export const HEARTBEAT_MS = 10_000;

export interface OrganizationScansOptions {
  readonly jobs: JobManager;
  readonly plugins: () => readonly LoadedPlugin[];
  readonly logger: Logger;
  readonly bands: AssessmentBands;
  /** `limits.scan_timeout_seconds`, in ms. */
  readonly timeoutMs: number;
  readonly maxInFlight: number;
  readonly allowLocalPaths: boolean;
}

/**
 * Organization jobs (docs/http-api.md, The organization job): each is recorded `running` at once and
 * its scan runs in this process, enrolled with the job manager so that a cancel asked of any
 * server, the scan's own time limit and shutdown all stop it, and end its repository jobs with it.
 */
export class OrganizationScans {
  private readonly log: Logger;
  /** The scans running here, each until its organization job's end is recorded. */
  private readonly running = new Map<string, { controller: AbortController; done: Promise<void> }>();

  constructor(private readonly options: OrganizationScansOptions) {
    this.log = options.logger.child('scans');
  }

  /** Records the organization job and starts its scan; refuses (ERR_SHUTTING_DOWN) when the server is stopping. */
  async start(request: OrganizationRequest, source: 'api' | 'schedule' = 'api'): Promise<Job> {
    const { jobs } = this.options;
    if (!jobs.accepting || this.stopping) throw new CadenceError('ERR_SHUTTING_DOWN');
    const job = organizationJob(request, source);
    const controller = new AbortController();
    // Enrolled before its record exists: a shutdown beginning meanwhile stops it too.
    const untrack = jobs.track(job.id, controller);
    try {
      await jobs.recordOrganization(job);
    } catch (error) {
      untrack();
      throw error;
    }
    // While it runs the scan says so every HEARTBEAT_MS: a job whose server was killed is told
    // apart by its silence, and a cancel then ends it (JobCancelling).
    const heartbeat = setInterval(
      () =>
        void jobs
          .heartbeat(job.id)
          // A missed heartbeat is made up by the next one; the scan goes on.
          .catch((error: unknown) =>
            this.log.warn('organization scan heartbeat missed', { job_id: job.id, error: errorMessage(error) }),
          ),
      HEARTBEAT_MS,
    );
    const seconds = Math.round(this.options.timeoutMs / 1000);
    const timer = setTimeout(
      () =>
        controller.abort(
          new CadenceError('ERR_JOB_TIMEOUT', { message: `The organization scan exceeded ${seconds} s` }),
        ),
      this.options.timeoutMs,
    );
    this.log.info('organization scan started', { job_id: job.id, organization: request.url });
    const done = runOrganizationScan(job, request, { ...this.options, log: this.log }, controller.signal)
      .catch((error: unknown) =>
        this.end(job.id, controller.signal.aborted ? toCadenceError(controller.signal.reason) : toCadenceError(error)),
      )
      .finally(() => {
        clearTimeout(timer);
        clearInterval(heartbeat);
        untrack();
        this.running.delete(job.id);
      });
    this.running.set(job.id, { controller, done });
    return job;
  }

  private stopping = false;

  /**
   * Shutdown: every scan here stops with ERR_SHUTTING_DOWN (its repository jobs cancelled, its end
   * recorded), awaited at most `graceMs`, before the job machinery and the backends close.
   */
  async stop(graceMs: number): Promise<void> {
    this.stopping = true;
    const scans = [...this.running.values()];
    for (const { controller } of scans) controller.abort(new CadenceError('ERR_SHUTTING_DOWN'));
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.allSettled(scans.map((s) => s.done)),
      new Promise((resolve) => (timer = setTimeout(resolve, graceMs))),
    ]);
    clearTimeout(timer);
  }

  /** The scan stopped before its result: the organization job ends by the code, and says so. */
  private async end(id: string, failure: CadenceError): Promise<void> {
    // The record's transition waits out a store outage and logs; past its patience the scan has nothing more to try.
    await this.options.jobs.organizationEnded(id, failure).catch(() => undefined);
  }
}

/** A new organization job's record, running from now. */
function organizationJob(request: OrganizationRequest, source: 'api' | 'schedule'): Job {
  const now = isoNow();
  return {
    id: newJobId(),
    status: 'running',
    kind: 'organization',
    source,
    repo: request.url,
    branch: null,
    url: request.url,
    created_at: now,
    started_at: now,
    finished_at: null,
    error: null,
    error_code: null,
    request,
    progress: { total: null, done: 0, failed: 0 },
    children: [],
    heartbeat_at: now,
  };
}
