import { expect } from 'chai';
import { mkdir } from 'node:fs/promises';
import { Writable } from 'node:stream';
import { loadConfig, toPluginConfigView } from '@cadence-detect/config';
import { createEngine } from '@cadence-detect/engine';
import { createLogger } from '@cadence-detect/logger';
import {
  eventually,
  createRepository,
  humanHistory,
  makeTempDir,
  startStalledServer,
} from '@cadence-detect/test-support';
import { InMemoryJobCancels } from '../src/jobs/job-cancels.js';
import { InMemoryJobEventChannel } from '../src/jobs/job-events.js';
import { JobManager } from '../src/jobs/job-manager.js';
import { InMemoryJobQueue, type JobQueue } from '../src/jobs/job-queue.js';
import { InMemoryJobStore } from '../src/jobs/job-store.js';
import type { Job } from '../src/jobs/job.js';
import type { JobEngine } from '../src/jobs/job-engine.js';
import { ServerMetrics } from '../src/metrics.js';
import { SizedResultCache } from '../src/result-cache.js';
import { httpErrorOf } from '../src/middleware/http-answers.js';
import { CadenceError } from '@cadence-detect/errors';

async function manager(options: {
  workers: number;
  queueCapacity: number;
  queue?: JobQueue;
  store?: InMemoryJobStore;
  engine?: (engine: JobEngine) => JobEngine;
  allowLocalPaths?: boolean;
}) {
  const dir = await makeTempDir('cadence-jobs-');
  const { config } = await loadConfig({ cwd: dir.path, env: {} });
  const logger = createLogger({ level: 'error', stream: new Writable({ write: (_chunk, _encoding, done) => done() }) });
  const metrics = new ServerMetrics();
  const store = options.store ?? new InMemoryJobStore(100);
  const engine: JobEngine = createEngine({ config, pluginConfig: toPluginConfigView(config), logger, plugins: [] });
  const jobs = new JobManager({
    engine: options.engine ? options.engine(engine) : engine,
    store,
    queue: options.queue ?? new InMemoryJobQueue(options.queueCapacity),
    events: new InMemoryJobEventChannel(),
    cancels: new InMemoryJobCancels(),
    cache: new SizedResultCache(1 << 20, metrics),
    metrics,
    logger,
    workers: options.workers,
    jobTimeoutMs: 60_000,
    network: null,
    allowLocalPaths: options.allowLocalPaths ?? false,
    publicUrl: null,
  });
  return { jobs, store, dir: dir.path, cleanup: () => dir.remove() };
}

/** The memory store, away (as a Redis restarting is) for the writes asked while `away` is set. */
class FlakyStore extends InMemoryJobStore {
  away = false;
  refused = 0;

  override async update(id: string, change: (job: Job) => void): Promise<Job | undefined> {
    if (this.away) {
      this.refused++;
      throw new CadenceError('ERR_DATABASE_CONNECTION_FAILED', {
        message: 'The job store is unavailable; retry later',
      });
    }
    return super.update(id, change);
  }
}

/** The memory queue with its offers held until `open()`, or failing as a queue on a Redis gone away does. */
class GatedQueue extends InMemoryJobQueue {
  private release: () => void = () => undefined;
  private gate: Promise<void> | null = null;
  failing = false;

  hold(): void {
    this.gate = new Promise((resolve) => (this.release = resolve));
  }

  open(): void {
    this.release();
    this.gate = null;
  }

  /** How often a delivery waiting for its first job asked whether the queue holds it. */
  asked = 0;

  override async holds(id: string): Promise<boolean> {
    this.asked++;
    return super.holds(id);
  }

  override async offer(id: string): Promise<boolean> {
    if (this.gate) await this.gate;
    if (this.failing) throw new Error('the queue is unavailable');
    return super.offer(id);
  }
}

const spec = (url: string) => ({
  request: { kind: 'repository' as const, url, branch: null },
  source: 'api' as const,
  repo: 'acme/stall',
  branch: null,
});

describe('job manager', function () {
  this.timeout(20_000);

  it('refuses a submit once shutting down with ERR_SHUTTING_DOWN, answered 503 overloaded, Retry-After 30, and creates nothing', async () => {
    const { jobs, store, cleanup } = await manager({ workers: 0, queueCapacity: 10 });
    try {
      await jobs.shutdown(0);
      const thrown = await jobs.submit(spec('git://127.0.0.1:9/acme/stall.git')).catch((error: unknown) => error);
      // The job manager raises the code; the server's edge alone gives it a status.
      expect(thrown).to.be.instanceOf(CadenceError).with.property('code', 'ERR_SHUTTING_DOWN');
      const refused = httpErrorOf(thrown);
      expect(refused).to.include({ status: 503, error: 'overloaded', message: 'The server is shutting down' });
      expect(refused).to.have.deep.property('extra', { retry_after: 30 });
      expect(refused).to.have.deep.property('headers', { 'Retry-After': '30' });
      expect(await store.size()).to.equal(0);
    } finally {
      await cleanup();
    }
  });

  it('leaves no job behind for a submit refused because the queue filled while it was being made', async () => {
    const { jobs, store, cleanup } = await manager({ workers: 0, queueCapacity: 1 });
    try {
      // Submitted together, all pass the room check before any is offered: one fits, the rest are refused.
      const outcomes = await Promise.allSettled(
        Array.from({ length: 5 }, () => jobs.submit(spec('git://127.0.0.1:9/acme/stall.git'))),
      );
      expect(outcomes.filter((o) => o.status === 'fulfilled')).to.have.length(1);
      for (const refused of outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected')) {
        expect(refused.reason).to.be.instanceOf(CadenceError).with.property('code', 'ERR_QUEUE_FULL');
        expect(httpErrorOf(refused.reason)).to.include({ status: 503, error: 'overloaded' });
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
      await eventually(() => stalled.connections() > 0, 'the stalled server\u2019s first connection');
      const started = Date.now();
      const cancelled = await jobs.cancel(job.id);
      expect(cancelled).to.include({ status: 'cancelled', error_code: 'ERR_CANCELLED' });
      expect(Date.now() - started).to.be.below(2000);
    } finally {
      await stalled.close();
      await cleanup();
    }
  });

  it('refuses to cancel an unknown job (ERR_JOB_NOT_FOUND, answered 404) and one already ended (ERR_JOB_FINAL, answered 409)', async () => {
    const { jobs, cleanup } = await manager({ workers: 0, queueCapacity: 10 });
    try {
      const unknown = await jobs.cancel('nope').catch((error: unknown) => error);
      expect(unknown).to.be.instanceOf(CadenceError).with.property('code', 'ERR_JOB_NOT_FOUND');
      expect(httpErrorOf(unknown)).to.include({ status: 404, error: 'not_found', message: 'No job nope' });
      const job = await jobs.submit(spec('git://127.0.0.1:9/acme/stall.git'));
      expect(await jobs.cancel(job.id)).to.include({ status: 'cancelled', error_code: 'ERR_CANCELLED' });
      const again = await jobs.cancel(job.id).catch((error: unknown) => error);
      expect(again).to.be.instanceOf(CadenceError).with.property('code', 'ERR_JOB_FINAL');
      expect(httpErrorOf(again)).to.include({
        status: 409,
        error: 'conflict',
        message: `Job ${job.id} is already cancelled`,
      });
    } finally {
      await cleanup();
    }
  });

  it('closes an engine that has something to close (an analysis thread pool) at shutdown, and needs nothing of one that has not', async () => {
    let closed = 0;
    const closing = await manager({
      workers: 1,
      queueCapacity: 10,
      engine: (engine) => ({
        analyze: (request, options) => engine.analyze(request, options),
        close: async () => void closed++,
      }),
    });
    const plain = await manager({ workers: 1, queueCapacity: 10 });
    try {
      await closing.jobs.shutdown(0);
      expect(closed).to.equal(1);
      await plain.jobs.shutdown(0);
    } finally {
      await closing.cleanup();
      await plain.cleanup();
    }
  });

  it('records a job’s outcome once a store that was away returns, rather than leaving it running', async function () {
    this.timeout(30_000);
    const store = new FlakyStore(100);
    const { jobs, dir, cleanup } = await manager({ workers: 1, queueCapacity: 10, store, allowLocalPaths: true });
    try {
      const repository = `${dir}/repo`;
      await mkdir(repository);
      await createRepository(repository, humanHistory(4));
      const original = store.update.bind(store);
      // The store goes away as the job starts running, and is back once it has refused three writes.
      let started = false;
      store.update = async (id, change) => {
        const job = await original(id, change);
        if (!started && job?.status === 'running') {
          started = true;
          store.away = true;
          void eventually(() => store.refused >= 3, 'three writes refused', { timeoutMs: 15_000 }).finally(
            () => (store.away = false),
          );
        }
        return job;
      };
      const job = await jobs.submit({
        request: { kind: 'repository', url: repository, branch: null },
        source: 'api',
        repo: 'acme/repo',
        branch: null,
      });
      await eventually(async () => (await store.get(job.id))?.status === 'completed', 'the job completed', {
        timeoutMs: 20_000,
      });
      expect(store.refused).to.be.at.least(3);
    } finally {
      await jobs.shutdown(0);
      await cleanup();
    }
  });

  describe('deliveries (docs/http-api.md, POST /webhooks/github: a redelivery points at the first job)', () => {
    const push = () => spec('git://127.0.0.1:9/acme/stall.git');

    it('makes one job of concurrent deliveries of one id, and points the others at it', async () => {
      const { jobs, store, cleanup } = await manager({ workers: 0, queueCapacity: 10 });
      try {
        const outcomes = await Promise.all(Array.from({ length: 5 }, () => jobs.receive(push(), 'github:d1')));
        expect(new Set(outcomes.map((o) => o.jobId)).size).to.equal(1);
        expect(outcomes.filter((o) => !o.duplicate)).to.have.length(1);
        expect(await store.size()).to.equal(1);
        expect((await jobs.receive(push(), 'github:d2')).duplicate).to.equal(false);
      } finally {
        await cleanup();
      }
    });

    it('answers a redelivery only once the first delivery’s job is queued', async () => {
      const queue = new GatedQueue(10);
      const { jobs, cleanup } = await manager({ workers: 0, queueCapacity: 10, queue });
      try {
        queue.hold();
        const first = jobs.receive(push(), 'github:d1');
        let answered = false;
        const second = jobs.receive(push(), 'github:d1').then((o) => ((answered = true), o));
        // The redelivery has asked more than once whether the first job is queued, and still waits.
        await eventually(() => queue.asked >= 2, 'the redelivery asking after the first job');
        expect(answered).to.equal(false);
        queue.open();
        const [a, b] = await Promise.all([first, second]);
        expect(b).to.deep.equal({ jobId: a.jobId, duplicate: true });
        expect(await queue.holds(a.jobId)).to.equal(true);
      } finally {
        await cleanup();
      }
    });

    it('lets a redelivery try again when the first delivery was refused or the queue failed', async () => {
      const queue = new GatedQueue(1);
      const { jobs, store, cleanup } = await manager({ workers: 0, queueCapacity: 1, queue });
      try {
        const filler = await jobs.submit(push());
        const refused = await jobs.receive(push(), 'github:d1').catch((error: unknown) => error);
        expect(httpErrorOf(refused)).to.include({ status: 503, error: 'overloaded' });
        await jobs.cancel(filler.id);
        queue.failing = true;
        const failed = await jobs.receive(push(), 'github:d1').catch((error: unknown) => error);
        expect(failed).to.be.an('error');
        expect((await store.list({ limit: 10, offset: 0 })).map((j) => j.status)).to.deep.equal(['cancelled']);
        queue.failing = false;
        const taken = await jobs.receive(push(), 'github:d1');
        expect(taken.duplicate).to.equal(false);
        expect(await queue.holds(taken.jobId)).to.equal(true);
      } finally {
        await cleanup();
      }
    });

    it('takes a delivery over from a job a dead server recorded and never queued', async () => {
      const { jobs, store, cleanup } = await manager({ workers: 0, queueCapacity: 10 });
      try {
        const created_at = new Date(Date.now() - 60_000).toISOString();
        const orphan = {
          id: 'orphan',
          status: 'queued' as const,
          kind: 'repository' as const,
          source: 'webhook:github' as const,
          repo: 'acme/stall',
          branch: null,
          url: 'git://127.0.0.1:9/acme/stall.git',
          created_at,
          started_at: null,
          finished_at: null,
          error: null,
          error_code: null,
          request: push().request,
        };
        await store.create(orphan, 'github:d1');
        const taken = await jobs.receive(push(), 'github:d1');
        expect(taken.duplicate).to.equal(false);
        expect(taken.jobId).to.not.equal('orphan');
        expect(await store.get('orphan')).to.equal(undefined);
        // A job that ran and has since expired from the store: its redelivery still points at it.
        await store.delete(taken.jobId);
        expect(await jobs.receive(push(), 'github:d1')).to.deep.equal({ jobId: taken.jobId, duplicate: true });
      } finally {
        await cleanup();
      }
    });
  });
});
