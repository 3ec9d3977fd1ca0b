import { errorMessage } from '@cadence-detect/errors';
import type {
  AnalysisContext,
  EngineHooks,
  JobFailure,
  JobInfo,
  JobStart,
  ReportOutcome,
} from '@cadence-detect/plugin-sdk';
import type { EngineLogger } from './engine-logger.js';

type SideEffectHook = 'jobStart' | 'jobFailed' | 'report';

/**
 * `jobStart`, `jobFailed` and `report` are side effects: each tap fails on its own, as a warn line
 * and a failed report outcome under the tap's (its plugin's) name; the taps after it still run and
 * the result stands. Set once, before any plugin taps.
 */
export function isolateSideEffectTaps(hooks: EngineHooks, log: EngineLogger): void {
  const failed =
    (hook: SideEffectHook, on: { readonly job: JobInfo | null; recordReport(outcome: ReportOutcome): void }) =>
    (tapName: string, error: unknown) => {
      log.warn(`a ${hook} tap failed`, {
        job_id: on.job?.id,
        tap: tapName,
        error: errorMessage(error),
      });
      on.recordReport(failedTap(tapName, hook, on.job));
    };
  isolateTaps(hooks.jobStart, (tap, error, args) => failed('jobStart', args[0] as JobStart)(tap, error));
  isolateTaps(hooks.jobFailed, (tap, error, args) => failed('jobFailed', args[0] as JobFailure)(tap, error));
  isolateTaps(hooks.report, (tap, error, args) => failed('report', args[1] as AnalysisContext)(tap, error));
}

function failedTap(reporter: string, hook: SideEffectHook, job: JobInfo | null): ReportOutcome {
  return {
    reporter,
    forge: job?.forge?.forge ?? null,
    kind: hook,
    target: job?.forge ? `${job.forge.repository}@${job.forge.sha}` : (job?.id ?? ''),
    state: 'error',
    ok: false,
    error_code: 'ERR_REPORTER_FAILED',
    at: new Date().toISOString(),
  };
}

/** A tap as tapable hands it to a `register` interceptor (tapable does not export the type). */
interface RegisteredTap {
  name: string;
  type: 'sync' | 'async' | 'promise';
  /** tapable's own type for it: a sync, callback or promise function by `type`. */
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type -- tapable types a tap's function so; a narrower type would not accept its taps
  fn: Function;
  before?: string;
  stage?: number;
}

/** What isolateTaps needs of a hook: tapable's own interceptor registration. */
interface InterceptableHook {
  intercept(interceptor: { register?: (tap: RegisteredTap) => RegisteredTap }): void;
}

/**
 * Makes each tap of a side-effect hook fail on its own, through tapable's `intercept({ register })`:
 * every tap, registered before or after, is rewritten into a promise tap that reports its own
 * failure (a throw, a rejection, an error passed to its callback) under its own name and then
 * resolves. The hook is then called as tapable calls it (`hook.promise(...)`): a series goes on to
 * the next tap, a parallel hook hears every tap, and other interceptors (`call`, `tap`) still run.
 */
export function isolateTaps(
  hook: InterceptableHook,
  onFailure: (tapName: string, error: unknown, args: readonly unknown[]) => void,
): void {
  hook.intercept({
    register(tap) {
      const original = tap;
      return {
        ...tap,
        type: 'promise',
        fn: (...args: unknown[]) =>
          callTap(original, args).catch((error: unknown) => onFailure(original.name, error, args)),
      };
    },
  });
}

async function callTap(tap: RegisteredTap, args: readonly unknown[]): Promise<void> {
  const fn = tap.fn as (...a: unknown[]) => unknown;
  if (tap.type === 'promise') {
    await (fn(...args) as Promise<unknown>);
  } else if (tap.type === 'async') {
    await new Promise<void>((resolve, reject) => {
      fn(...args, (error?: unknown) =>
        error ? reject(error instanceof Error ? error : new Error(errorMessage(error))) : resolve(),
      );
    });
  } else {
    fn(...args);
  }
}
