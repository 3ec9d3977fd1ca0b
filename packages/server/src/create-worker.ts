import type { CadenceConfig } from '@cadence-detect/config';
import type { Engine } from '@cadence-detect/engine';
import type { Logger } from '@cadence-detect/logger';
import type { ServerBackends } from './backends/server-backends.js';
import { JobManager, jobManagerFor } from './jobs/job-manager.js';
import { ServerMetrics } from './metrics.js';

export interface WorkerOptions {
  readonly config: CadenceConfig;
  readonly engine: Engine;
  readonly logger: Logger;
  /** Shared backends (Redis): a worker runs what servers enqueue there. */
  readonly backends: ServerBackends;
  readonly concurrency: number;
}

export interface CadenceWorker {
  readonly jobs: JobManager;
  /** Stops taking jobs; running ones finish within the grace period or go back to the queue. */
  shutdown(): Promise<void>;
}

/** Analysis workers without HTTP (`cadence worker`): the same job manager as a server's, consuming only. */
export function createWorker(options: WorkerOptions): CadenceWorker {
  const { config, backends } = options;
  if (!backends.queue.shared) throw new Error('a worker needs a shared queue (queue.backend: redis)');
  const metrics = new ServerMetrics();
  const jobs = jobManagerFor({
    ...options,
    metrics,
    cache: backends.resultCache(metrics),
    workers: options.concurrency,
  });
  return {
    jobs,
    async shutdown() {
      await jobs.shutdown(config.limits.shutdown_grace_seconds * 1000);
      await backends.close();
    },
  };
}
