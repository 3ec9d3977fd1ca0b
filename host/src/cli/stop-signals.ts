import type { Logger } from '@cadence-detect/logger';

/** How long past the grace period a shutdown may take before the process leaves anyway. */
export const SHUTDOWN_OVERRUN_MS = 15_000;

/**
 * Runs until SIGTERM or SIGINT, then `shutdown` (the server's or the worker's graceful stop), and
 * resolves once it is done: how `cadence webhook` and `cadence worker` end. A shutdown still
 * waiting well past the grace period (an analysis deaf to its abort, a connection that never
 * closes) is given up on: the process leaves, and a shared queue hands its jobs to another worker
 * through the stalled-job check, as for a crash.
 */
export function runUntilStopped(
  log: Logger,
  graceSeconds: number,
  shutdown: () => Promise<void>,
  overrunMs = SHUTDOWN_OVERRUN_MS,
): Promise<void> {
  return new Promise<void>((resolve) => {
    const stop = (signal: string): void => {
      process.off('SIGTERM', onTerm);
      process.off('SIGINT', onInt);
      log.info('shutting down', { signal, grace_seconds: graceSeconds });
      const overrun = setTimeout(
        () => {
          log.warn('shutdown did not finish in time; leaving', { waited_seconds: graceSeconds + overrunMs / 1000 });
          resolve();
        },
        graceSeconds * 1000 + overrunMs,
      );
      overrun.unref();
      void shutdown().then(() => {
        clearTimeout(overrun);
        log.info('stopped');
        resolve();
      });
    };
    const onTerm = (): void => stop('SIGTERM');
    const onInt = (): void => stop('SIGINT');
    process.on('SIGTERM', onTerm);
    process.on('SIGINT', onInt);
  });
}
