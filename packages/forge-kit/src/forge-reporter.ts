import type {
  EngineHooks,
  Forge,
  ForgeTarget,
  JobInfo,
  ReportOutcome,
  AnalysisResult,
} from '@cadence-detect/plugin-sdk';

/**
 * A job that came from a forge's webhook: the only jobs a forge reporter is given.
 * @since 1.1
 */
export type ForgeJob = JobInfo & { readonly forge: ForgeTarget };

/**
 * Whether a job came from `forge`'s webhook.
 * @since 1.1
 */
export function isJobOf(job: JobInfo | null | undefined, forge: Forge): job is ForgeJob {
  return job?.forge?.forge === forge;
}

/**
 * The forge target of a job a forge reporter was given (its hooks give it only its forge's jobs):
 * an Error for a job that did not come from a forge.
 * @since 1.1
 */
export function forgeTargetOf(job: JobInfo): ForgeTarget {
  if (!job.forge) throw new Error(`job ${job.id} did not come from a forge's webhook`);
  return job.forge;
}

/**
 * What a reporter does at each point of a job of its forge.
 * @since 1.4
 */
export interface ForgeReporter {
  /** The job began (a `pending` status); the analysis does not wait for it. */
  start(job: JobInfo, record: (outcome: ReportOutcome) => void): void;
  /** The job has its result: the verdict. The `complete` event does not wait for it. */
  finish(job: JobInfo, result: AnalysisResult, record: (outcome: ReportOutcome) => void): Promise<void>;
  /** The job ended without a result: the pending status turns into an error. */
  fail(
    job: JobInfo,
    error: { readonly code: string; readonly message: string },
    record: (outcome: ReportOutcome) => void,
  ): Promise<void>;
}

/**
 * Wires a reporter into the three hooks a reporter needs (`jobStart`, `report`, `jobFailed`), for
 * the jobs of one forge only, never awaited by the analysis: every forge reporter taps them the
 * same way, so it is written once. Call it from `apply`.
 */
export function tapForgeReporter(hooks: EngineHooks, name: string, forge: Forge, reporter: ForgeReporter): void {
  hooks.jobStart.tap(name, (start) => {
    if (isJobOf(start.job, forge)) reporter.start(start.job, (outcome) => start.recordReport(outcome));
  });
  hooks.report.tap(name, (result, context) => {
    if (isJobOf(context.job, forge))
      void reporter.finish(context.job, result, (outcome) => context.recordReport(outcome));
  });
  hooks.jobFailed.tap(name, (failure) => {
    if (isJobOf(failure.job, forge))
      void reporter.fail(failure.job, failure.error, (outcome) => failure.recordReport(outcome));
  });
}

/**
 * A reporter whose module loads on its first job: a forge plugin is loaded by every
 * command, and its API client (Octokit, Gitbeaker) should cost nothing until a job reports. Calls
 * keep their order: each waits for the same load.
 * @since 1.6
 */
export function lazyForgeReporter(
  load: () => Promise<ForgeReporter>,
  onLoadError: (error: unknown) => void,
): ForgeReporter {
  let loading: Promise<ForgeReporter | null> | null = null;
  // A module that cannot load reports nothing (said once, through onLoadError) rather than reject into a hook nobody awaits.
  const reporter = (): Promise<ForgeReporter | null> =>
    (loading ??= load().catch((error: unknown) => (onLoadError(error), null)));
  return {
    start(job, record) {
      void reporter().then((r) => r?.start(job, record));
    },
    async finish(job, result, record) {
      await (await reporter())?.finish(job, result, record);
    },
    async fail(job, error, record) {
      await (await reporter())?.fail(job, error, record);
    },
  };
}
