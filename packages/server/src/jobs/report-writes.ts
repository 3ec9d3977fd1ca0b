import { errorMessage } from '@cadence-detect/errors';
import type { Logger } from '@cadence-detect/logger';
import type { ReportOutcome } from '@cadence-detect/plugin-sdk';
import { MAX_REPORTS_PER_JOB } from './job.js';
import type { JobStore } from './job-store.js';

/**
 * Reporters' outcomes joining their job's record, also after the job has ended (reporters finish
 * later). They are written one after another per job: two writes racing through a shared store's
 * optimistic update would otherwise land in either order (a status's `running` after its `success`).
 */
export class ReportWrites {
  /** Each job's report recording, chained so outcomes land in the order reporters finished. */
  private readonly chains = new Map<string, Promise<void>>();

  constructor(
    private readonly store: JobStore,
    private readonly log: Logger,
  ) {}

  queue(id: string, outcome: ReportOutcome): void {
    const previous = this.chains.get(id) ?? Promise.resolve();
    const next = previous.then(() => this.record(id, outcome));
    this.chains.set(id, next);
    void next.then(() => {
      if (this.chains.get(id) === next) this.chains.delete(id);
    });
  }

  private async record(id: string, outcome: ReportOutcome): Promise<void> {
    try {
      await this.store.update(id, (j) => {
        const reports = j.reports ?? [];
        if (reports.length < MAX_REPORTS_PER_JOB) j.reports = [...reports, outcome];
      });
      const fields = {
        job_id: id,
        reporter: outcome.reporter,
        forge: outcome.forge,
        kind: outcome.kind,
        target: outcome.target,
        state: outcome.state,
        ok: outcome.ok,
        error_code: outcome.error_code,
      };
      if (outcome.ok) this.log.info('report sent', fields);
      else this.log.warn('report failed', fields);
    } catch (error) {
      this.log.warn('could not record a report', { job_id: id, error: errorMessage(error) });
    }
  }
}
