import type { EngineHooks } from './hooks.js';
import type { Forge, JobInfo, ReportOutcome } from './job.js';
import type { AnalysisResult } from './result.js';

/** What a reporter does at each point of a job of its forge (API 1.4). */
export interface ForgeReporter {
  /** The job began (a `pending` status); the analysis does not wait for it. */
  start(job: JobInfo, record: (outcome: ReportOutcome) => void): void;
  /** The job has its result: the verdict. The `complete` event does not wait for it. */
  finish(job: JobInfo, result: AnalysisResult, record: (outcome: ReportOutcome) => void): Promise<void>;
  /** The job ended without a result: the pending status turns into an error. */
  fail(job: JobInfo, error: { readonly code: string; readonly message: string }, record: (outcome: ReportOutcome) => void): Promise<void>;
}

/**
 * Wires a reporter into the three hooks a reporter needs (`jobStart`, `report`, `jobFailed`), for
 * the jobs of one forge only, never awaited by the analysis: every forge reporter taps them the
 * same way, so it is written once. Call it from `apply`.
 */
export function tapForgeReporter(hooks: EngineHooks, name: string, forge: Forge, reporter: ForgeReporter): void {
  hooks.jobStart.tap(name, (start) => {
    if (start.job.forge?.forge === forge) reporter.start(start.job, start.recordReport);
  });
  hooks.report.tap(name, (result, context) => {
    if (context.job?.forge?.forge === forge) void reporter.finish(context.job, result, context.recordReport);
  });
  hooks.jobFailed.tap(name, (failure) => {
    if (failure.job.forge?.forge === forge) void reporter.fail(failure.job, failure.error, failure.recordReport);
  });
}
