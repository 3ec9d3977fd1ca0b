import { expect } from 'chai';
import { Writable } from 'node:stream';
import { loadConfig, toPluginConfigView } from '@cadence/config';
import { createEngine } from '@cadence/engine';
import { createLogger } from '@cadence/logger';
import { makeTempDir, startStalledServer } from '@cadence/test-support';
import { InMemoryJobCancels } from '../src/jobs/job-cancels.js';
import { InMemoryJobEventChannel } from '../src/jobs/job-events.js';
import { JobManager } from '../src/jobs/job-manager.js';
import { InMemoryJobQueue } from '../src/jobs/job-queue.js';
import { InMemoryJobStore } from '../src/jobs/job-store.js';
import { ServerMetrics } from '../src/metrics.js';
import { SizedResultCache } from '../src/result-cache.js';

async function manager(options: { workers: number; queueCapacity: number }) {
  const dir = await makeTempDir('cadence-jobs-');
  const { config } = await loadConfig({ cwd: dir.path, env: {} });
  const logger = createLogger({ level: 'error', stream: new Writable({ write: (_chunk, _encoding, done) => done() }) });
  const metrics = new ServerMetrics();
  const store = new InMemoryJobStore(100);
  const jobs = new JobManager({
    engine: createEngine({ config, pluginConfig: toPluginConfigView(config), logger, plugins: [] }),
    store,
    queue: new InMemoryJobQueue(options.queueCapacity),
    events: new InMemoryJobEventChannel(),
    cancels: new InMemoryJobCancels(),
    cache: new SizedResultCache(1 << 20, metrics),
    metrics,
    logger,
    workers: options.workers,
    jobTimeoutMs: 60_000,
    network: null,
    allowLocalPaths: false,
    publicUrl: null,
  });
  return { jobs, store, cleanup: () => dir.remove() };
}

const spec = (url: string) => ({ request: { kind: 'repository' as const, url, branch: null }, source: 'api' as const, repo: 'acme/stall', branch: null });

describe('job manager', function () {
  this.timeout(20_000);

  it('leaves no job behind for a submit refused because the queue filled while it was being made', async () => {
    const { jobs, store, cleanup } = await manager({ workers: 0, queueCapacity: 1 });
    try {
      // Submitted together, all pass the room check before any is offered: one fits, the rest are refused.
      const outcomes = await Promise.allSettled(Array.from({ length: 5 }, () => jobs.submit(spec('git://127.0.0.1:9/acme/stall.git'))));
      expect(outcomes.filter((o) => o.status === 'fulfilled')).to.have.length(1);
      for (const refused of outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected')) {
        expect(refused.reason).to.include({ status: 503, error: 'overloaded' });
      }
      const listed = await store.list({ limit: 100, offset: 0 });
      expect(listed.map((j) => j.status)).to.deep.equal(['queued']);
    } finally {
      await cleanup();
    }
  });

  it('answers a cancel of a running job with the job already cancelled, as soon as it has unwound', async () => {
    const stalled = await startStalledServer();
    const { jobs, cleanup } = await manager({ workers: 1, queueCapacity: 10 });
    try {
      const job = await jobs.submit(spec(`git://127.0.0.1:${stalled.port}/acme/stall.git`));
      while (stalled.connections() === 0) await new Promise((resolve) => setTimeout(resolve, 10));
      const started = Date.now();
      const cancelled = await jobs.cancel(job.id);
      expect(cancelled).to.include({ status: 'cancelled', error_code: 'ERR_CANCELLED' });
      expect(Date.now() - started).to.be.below(2000);
    } finally {
      await stalled.close();
      await cleanup();
    }
  });
});
