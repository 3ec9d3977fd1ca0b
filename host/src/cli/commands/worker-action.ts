import { createBackends, createWorker } from '@cadence-detect/server';
import { createRuntime } from '../../runtime.js';
import { CliError } from '../exit-codes.js';
import type { CliIo } from '../io.js';
import { runUntilStopped } from '../stop-signals.js';
import type { WorkerCommandOptions } from './worker.js';

/** `cadence worker`: runs jobs from the shared queue until SIGTERM or SIGINT, then finishes or hands them back. */
export async function runWorker(options: WorkerCommandOptions, io: CliIo): Promise<void> {
  const runtime = await createRuntime(io, {
    ...(options.config ? { configPath: options.config } : {}),
    logWarnings: true,
  });
  const { config, logger } = runtime;
  const log = logger.child('worker');
  if (config.queue.backend !== 'redis')
    throw new CliError(
      'usage',
      'cadence worker needs a shared queue: set queue.backend: redis (CADENCE_QUEUE_BACKEND=redis) and redis.url',
    );
  const concurrency = options.concurrency ?? (config.webhook.maxWorkers || 4);
  const backends = await createBackends(config, logger);
  const worker = createWorker({ config, engine: runtime.engine, logger, backends, concurrency });
  log.info('worker started', {
    concurrency,
    backend: backends.kind,
    plugins: runtime.plugins.map((p) => p.packageName),
  });
  await runUntilStopped(log, config.limits.shutdown_grace_seconds, () => worker.shutdown());
}
