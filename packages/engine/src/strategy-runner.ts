import { performance } from 'node:perf_hooks';
import { abortError } from '@cadence-detect/errors';
import type { AnalysisContext, Strategy } from '@cadence-detect/plugin-sdk';
import { validateOutcome, type CheckedOutcome } from './strategy-validation.js';
import { throwIfCancelled } from './cancellation.js';

export type StrategyRun =
  | { readonly ok: true; readonly outcome: CheckedOutcome; readonly durationMs: number }
  | { readonly ok: false; readonly error: string; readonly durationMs: number };

/**
 * Runs one strategy with a time budget. A throw, a rejected promise, an invalid return value or an
 * overrun becomes the strategy's error; only the job's own cancellation propagates.
 *
 * The strategy's context (made by `contextFor`) carries a signal of its own: the job's, aborted
 * too when the budget is spent, so an overrunning strategy's git reads (`diffExcerpt`, or its own
 * processes started with `context.signal`) stop with it rather than outlive it. The budget cannot
 * interrupt a strategy stuck in synchronous code on this thread (docs/plugins.md says so).
 */
export async function runStrategy(
  strategy: Strategy,
  contextFor: (signal: AbortSignal) => AnalysisContext,
  jobSignal: AbortSignal,
  budgetMs: number,
): Promise<StrategyRun> {
  const started = performance.now();
  const elapsed = (): number => Math.round(performance.now() - started);
  let timer: NodeJS.Timeout | undefined;
  const budget = new AbortController();
  const context = contextFor(AbortSignal.any([jobSignal, budget.signal]));
  const aborted = abortPromise(jobSignal);
  try {
    const work = Promise.resolve().then(() => (strategy.analyze as (c: AnalysisContext) => unknown)(context));
    const overrun = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        const exceeded = new BudgetExceeded(budgetMs);
        budget.abort(exceeded);
        reject(exceeded);
      }, budgetMs);
    });
    const value = await Promise.race([work, overrun, aborted.promise]);
    return { ok: true, outcome: validateOutcome(value, strategy.meta.messages), durationMs: elapsed() };
  } catch (error) {
    throwIfCancelled(jobSignal);
    return { ok: false, error: describe(error), durationMs: elapsed() };
  } finally {
    clearTimeout(timer);
    aborted.release();
  }
}

class BudgetExceeded extends Error {
  constructor(budgetMs: number) {
    super(`exceeded its time budget of ${budgetMs} ms`);
  }
}

/** Rejects when the job is cancelled; `release` removes the listener (a job runs many strategies on one signal). */
function abortPromise(signal: AbortSignal): { promise: Promise<never>; release(): void } {
  let listener: (() => void) | undefined;
  const promise = new Promise<never>((_, reject) => {
    // The job's own reason (a CadenceError: cancelled, timed out), as the job ends with it.
    if (signal.aborted) reject(abortError(signal));
    else {
      listener = () => reject(abortError(signal));
      signal.addEventListener('abort', listener, { once: true });
    }
  });
  // Raced against the strategy: a rejection after the race is over is expected, not unhandled.
  promise.catch(() => undefined);
  return { promise, release: () => listener && signal.removeEventListener('abort', listener) };
}

function describe(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  return `threw a non-error value (${typeof error})`;
}
