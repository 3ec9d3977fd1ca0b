import { parseDuration } from '@cadence-detect/config';

/** One `scans.schedule` entry, resolved: its target and period in ms. */
export interface ScheduledScan {
  readonly target: string;
  readonly everyMs: number;
}

/**
 * What fires scheduled scans: timers of this process (the memory backend: one server), or
 * BullMQ's job schedulers on Redis, where each firing goes to one server however many run.
 * `fire` starts the scan; `close` stops the timers (a Redis schedule stays for the other servers).
 */
export interface ScanTimer {
  close(): Promise<void>;
}

/**
 * Sets the timers up. `stop` aborts when the server stops: a setup still waiting (Redis away) gives
 * up and leaves no connection or worker behind, even when it would have finished after the stop.
 */
export type ScanTimerFactory = (
  entries: readonly ScheduledScan[],
  fire: (target: string) => Promise<void>,
  stop: AbortSignal,
) => Promise<ScanTimer>;

export function scheduledScans(schedule: readonly { target: string; every: string | number }[]): ScheduledScan[] {
  return schedule.map((entry) => ({ target: entry.target, everyMs: parseDuration(entry.every) }));
}

/** Timers in this process: each entry fires as the server starts, then every period. */
export const inProcessScanTimers: ScanTimerFactory = async (entries, fire) => {
  const timers = entries.flatMap((entry) => [
    setTimeout(() => void fire(entry.target), 0),
    setInterval(() => void fire(entry.target), entry.everyMs),
  ]);
  for (const timer of timers) timer.unref();
  return {
    async close() {
      for (const timer of timers) clearTimeout(timer);
    },
  };
};
