import type { Logger } from '@cadence/logger';

/**
 * Runs until SIGTERM or SIGINT, then `shutdown` (the server's or the worker's graceful stop), and
 * resolves once it is done: how `cadence webhook` and `cadence worker` end.
 */
export function runUntilStopped(log: Logger, graceSeconds: number, shutdown: () => Promise<void>): Promise<void> {
  return new Promise<void>((resolve) => {
    const stop = (signal: string): void => {
      process.off('SIGTERM', onTerm);
      process.off('SIGINT', onInt);
      log.info('shutting down', { signal, grace_seconds: graceSeconds });
      void shutdown().then(() => {
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
