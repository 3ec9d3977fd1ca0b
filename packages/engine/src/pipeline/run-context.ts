import type { AnalysisEvent, JobInfo, ReportOutcome } from '@cadence-detect/plugin-sdk';
import type { AnalyzeOptions, EmittedEvent } from '../analysis-request.js';

/** What the stages of one analysis share: its options, signal, events, job and report sink. */
export interface RunContext {
  readonly options: Omit<AnalyzeOptions, 'network' | 'allowLocalPaths'> &
    Partial<Pick<AnalyzeOptions, 'network' | 'allowLocalPaths'>>;
  readonly signal: AbortSignal;
  readonly emit: (event: AnalysisEvent) => void;
  readonly job: JobInfo | null;
  readonly recordReport: (outcome: ReportOutcome) => void;
  /** `context.keepOutOfCache`: records why a plugin asked that this analysis's result not be kept. */
  readonly keepOutOfCache: (reason: string) => void;
  /** The reasons given so far (none: the result may be kept). */
  readonly cacheRefusals: readonly string[];
}

export function startRun(options: RunContext['options']): RunContext {
  return {
    options,
    signal: options.signal ?? new AbortController().signal,
    emit: eventEmitter(options.onEvent),
    job: options.job ?? null,
    recordReport: reportRecorder(options),
    ...cacheRefusalRecorder(options),
  };
}

/** The reasons plugins give for keeping the result out of the cache, told to the caller; never throws. */
function cacheRefusalRecorder(
  options: Pick<AnalyzeOptions, 'onKeepOutOfCache'>,
): Pick<RunContext, 'keepOutOfCache' | 'cacheRefusals'> {
  const cacheRefusals: string[] = [];
  const keepOutOfCache = (reason: string): void => {
    cacheRefusals.push(reason);
    try {
      options.onKeepOutOfCache?.(reason);
    } catch {
      // A listener's failure is not the plugin's.
    }
  };
  return { keepOutOfCache, cacheRefusals };
}

/** The job's outcome sink, made safe: a reporter's record never throws into it. */
function reportRecorder(options: Pick<AnalyzeOptions, 'onReport'>): (outcome: ReportOutcome) => void {
  return (outcome) => {
    try {
      options.onReport?.(Object.freeze({ ...outcome }));
    } catch {
      // The job's record is the server's concern; a reporter cannot fail it.
    }
  };
}

function eventEmitter(onEvent: ((event: EmittedEvent) => void) | undefined): (event: AnalysisEvent) => void {
  if (!onEvent) return () => undefined;
  return (event) => onEvent({ ...event, type: event.event });
}
