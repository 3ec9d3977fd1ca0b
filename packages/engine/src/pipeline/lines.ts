import { throwIfCancelled } from '../cancellation.js';
import type { EngineLogger } from '../engine-logger.js';
import type { LineReadings } from '../line-shares.js';
import type { PreparedRepository } from '../prepared-source.js';
import { errorMessage } from '@cadence-detect/errors';

/** How long before a job's deadline the lines stop being waited for: the verdict, its refinement and its reports keep that. */
const LINES_RESERVE_MS = 10_000;

export type LinesOutcome = LineReadings | { skipped: string } | undefined;

/**
 * The lines of a repository source, or why there are none (a failure is logged and said, not
 * thrown). A job with a deadline waits for them only until LINES_RESERVE_MS before it: then they
 * are stopped and dropped with a reason, and the verdict keeps the time that is left.
 */
export async function readLines(
  source: PreparedRepository,
  signal: AbortSignal,
  log: EngineLogger,
  deadline?: number,
): Promise<LinesOutcome> {
  if (!source.readLines) return source.linesSkipped ? { skipped: source.linesSkipped } : undefined;
  const own = new AbortController();
  const stop = (): void => own.abort(signal.reason);
  signal.addEventListener('abort', stop, { once: true });
  const late = { skipped: "the job's time ran short: lines were dropped to keep the verdict" } as const;
  // Already inside the reserve: not asked for at all, even when a pass started beside the history
  // read could answer at once (the same answer whatever the race between them).
  if (deadline !== undefined && deadline - LINES_RESERVE_MS <= Date.now()) {
    signal.removeEventListener('abort', stop);
    return late;
  }
  let timer: NodeJS.Timeout | undefined;
  const cutOff =
    deadline === undefined
      ? null
      : new Promise<typeof late>((resolve) => {
          timer = setTimeout(
            () => {
              own.abort(new Error('lines out of time'));
              resolve(late);
            },
            Math.max(0, deadline - LINES_RESERVE_MS - Date.now()),
          );
        });
  try {
    const reading = source.readLines(own.signal);
    // Raced against the cut-off: a rejection after the race is settled below, not unhandled.
    reading.catch(() => undefined);
    return await (cutOff ? Promise.race([reading, cutOff]) : reading);
  } catch (error) {
    throwIfCancelled(signal);
    if (own.signal.aborted) return late;
    const reason =
      error instanceof Error && error.name === 'LinesSkipped'
        ? error.message
        : `lines could not be counted: ${errorMessage(error)}`;
    if (error instanceof Error && error.name !== 'LinesSkipped')
      log.warn('lines not counted', { error: error.message });
    return { skipped: reason };
  } finally {
    clearTimeout(timer);
    signal.removeEventListener('abort', stop);
  }
}
