import { expect } from 'chai';
import { Writable } from 'node:stream';
import { Redis } from 'ioredis';
import { loadConfig, type CadenceConfig } from '@cadence-detect/config';
import { CadenceError } from '@cadence-detect/errors';
import { httpErrorOf } from '../src/middleware/http-answers.js';
import { createLogger } from '@cadence-detect/logger';
import type { AnalysisResult } from '@cadence-detect/plugin-sdk';
import { eventually, makeTempDir, startRedisServer, type RedisServer } from '@cadence-detect/test-support';
import { createBackends, type ServerBackends } from '../src/backends/server-backends.js';
import { RedisJobCancels } from '../src/backends/redis/redis-job-cancels.js';
import { waitingConnection } from '../src/backends/redis/redis-connection.js';
import type { Job } from '../src/jobs/job.js';
import type { JobEvent } from '../src/jobs/job-events.js';
import { ServerMetrics } from '../src/metrics.js';
import { JobRecords } from '../src/jobs/job-records.js';

const quiet = createLogger({ level: 'error', stream: new Writable({ write: (_c, _e, done) => done() }) });
let prefixCount = 0;

async function redisConfig(url: string, overrides: Record<string, string> = {}): Promise<CadenceConfig> {
  const dir = await makeTempDir('cadence-redis-config-');
  try {
    const env = {
      CADENCE_QUEUE_BACKEND: 'redis',
      CADENCE_REDIS_URL: url,
      CADENCE_REDIS_KEY_PREFIX: `t${++prefixCount}`,
      ...overrides,
    };
    return (await loadConfig({ cwd: dir.path, env })).config;
  } finally {
    await dir.remove();
  }
}

function job(id: string, repo = 'acme/widgets', status: Job['status'] = 'queued'): Job {
  return {
    id,
    status,
    kind: 'repository',
    source: 'api',
    repo,
    branch: null,
    url: `https://example.test/${repo}`,
    created_at: new Date().toISOString(),
    started_at: null,
    finished_at: null,
    error: null,
    error_code: null,
    request: { kind: 'repository', url: `https://example.test/${repo}` },
  };
}

describe('Redis backends (a redis-server of the test’s own)', function () {
  this.timeout(30_000);
  let redis: RedisServer;
  const opened: ServerBackends[] = [];
  const open = async (config: CadenceConfig): Promise<ServerBackends> => {
    const backends = await createBackends(config, quiet);
    opened.push(backends);
    return backends;
  };

  before(async () => {
    redis = await startRedisServer();
  });
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((b) => b.close()));
  });
  after(async () => {
    await redis.close();
  });

  it('stores, updates and lists jobs most recent first, filtered and paged inside Redis', async () => {
    const { store } = await open(await redisConfig(redis.url));
    for (let i = 0; i < 7; i++) await store.create(job(`j${i}`, i % 2 === 0 ? 'acme/even' : 'acme/odd'));
    await store.update('j2', (j) => void (j.status = 'completed'));
    await store.update('j4', (j) => void (j.status = 'completed'));
    expect((await store.get('j2'))!.status).to.equal('completed');
    expect(await store.size()).to.equal(7);
    expect((await store.list({ limit: 3, offset: 0 })).map((j) => j.id)).to.deep.equal(['j6', 'j5', 'j4']);
    expect((await store.list({ limit: 3, offset: 3 })).map((j) => j.id)).to.deep.equal(['j3', 'j2', 'j1']);
    expect((await store.list({ limit: 10, offset: 0, repo: 'acme/even' })).map((j) => j.id)).to.deep.equal([
      'j6',
      'j4',
      'j2',
      'j0',
    ]);
    expect((await store.list({ limit: 10, offset: 0, status: 'completed' })).map((j) => j.id)).to.deep.equal([
      'j4',
      'j2',
    ]);
    expect(
      (await store.list({ limit: 10, offset: 0, status: 'queued', repo: 'acme/even' })).map((j) => j.id),
    ).to.deep.equal(['j6', 'j0']);
    expect(
      (await store.list({ limit: 10, offset: 0, status: 'queued', repo: 'acme/even' })).map((j) => j.id),
    ).to.deep.equal(['j6', 'j0']);
    await store.delete('j6');
    expect(await store.get('j6')).to.equal(undefined);
    expect((await store.list({ limit: 1, offset: 0, repo: 'acme/even' })).map((j) => j.id)).to.deep.equal(['j4']);
    expect(await store.update('missing', () => undefined)).to.equal(undefined);
  });

  it('applies concurrent updates from two servers without losing either', async () => {
    const config = await redisConfig(redis.url);
    const a = await open(config);
    const b = await open(config);
    await a.store.create(job('shared'));
    await Promise.all([
      ...Array.from({ length: 10 }, () => a.store.update('shared', (j) => void (j.error = `${j.error ?? ''}a`))),
      ...Array.from({ length: 10 }, () => b.store.update('shared', (j) => void (j.error = `${j.error ?? ''}b`))),
    ]);
    const error = (await b.store.get('shared'))!.error!;
    expect(error).to.have.length(20);
    expect(error.replace(/b/g, '')).to.have.length(10);
  });

  it('keeps at most max_jobs, dropping the oldest final jobs and never an active one, and gives final jobs a TTL', async () => {
    const config = await redisConfig(redis.url, {
      CADENCE_LIMITS_MAX_JOBS: '3',
      CADENCE_LIMITS_JOB_TTL_SECONDS: '120',
    });
    const { store } = await open(config);
    await store.create(job('active'));
    await store.create(job('old-final'));
    await store.update('old-final', (j) => void (j.status = 'failed'));
    await store.create(job('b'));
    await store.create(job('c'));
    expect(await store.get('old-final')).to.equal(undefined);
    expect(await store.get('active')).to.not.equal(undefined);
    expect(await store.size()).to.equal(3);
    await store.update('b', (j) => void (j.status = 'completed'));
    const raw = new Redis(redis.url);
    try {
      const ttl = await raw.ttl(`${config.redis.key_prefix}:job:b`);
      expect(ttl).to.be.within(100, 120);
      expect(await raw.ttl(`${config.redis.key_prefix}:job:active`)).to.equal(-1);
      // An expired job is dropped from the lists as they meet it.
      await raw.del(`${config.redis.key_prefix}:job:b`);
    } finally {
      raw.disconnect();
    }
    expect((await store.list({ limit: 10, offset: 0 })).map((j) => j.id)).to.deep.equal(['c', 'active']);
  });

  it('delivers a job’s events to a subscriber on another server, from the first one, in order', async () => {
    const config = await redisConfig(redis.url);
    const worker = await open(config);
    const server = await open(config);
    const event = (n: number): JobEvent => ({ event: 'progress', type: 'progress', n });
    worker.events.publish('job-1', event(1));
    worker.events.publish('job-1', event(2));
    // Both are in the job's stream before the other server subscribes: it gets them from there.
    const raw = new Redis(redis.url);
    try {
      await eventually(
        async () => (await raw.xlen(`${config.redis.key_prefix}:events:job-1`)) === 2,
        'two events kept',
      );
    } finally {
      raw.disconnect();
    }
    const seen: unknown[] = [];
    const done = new Promise<void>((resolve) => {
      server.events.subscribe('job-1', (e) => {
        seen.push(e.n);
        if (e.event === 'complete') resolve();
      });
    });
    worker.events.publish('job-1', event(3));
    worker.events.publish('job-1', { event: 'complete', type: 'complete', n: 4 });
    await done;
    expect(seen).to.deep.equal([1, 2, 3, 4]);
  });

  it('carries a cancel request to every server', async () => {
    const config = await redisConfig(redis.url);
    const a = await open(config);
    const b = await open(config);
    const heard = new Promise<[string, string]>((resolve) => b.cancels.listen((id, code) => resolve([id, code])));
    // Pub/sub delivers only to subscriptions already in place: once b's is, one request is heard
    // (it is also remembered for late readers). Each wait is bounded and says what it waited for.
    const within = <T>(work: Promise<T>, ms: number, what: string): Promise<T> =>
      Promise.race([
        work,
        new Promise<never>((_, reject) =>
          setTimeout(() => reject(new Error(`${what} did not happen within ${ms} ms`)), ms),
        ),
      ]);
    // b hears nothing before its subscription is in place: wait for it (a loaded machine can take
    // longer than the 5 s the backends wait at start), and say so if it never comes.
    if (b.cancels instanceof RedisJobCancels)
      await within(b.cancels.ready, 20_000, 'the other server subscribing to cancels');
    await within(a.cancels.request('job-9', 'ERR_CANCELLED'), 5000, 'the cancel request');
    expect(await within(heard, 10_000, 'hearing the cancel on the other server')).to.deep.equal([
      'job-9',
      'ERR_CANCELLED',
    ]);
    expect(await b.cancels.requested('job-9')).to.equal('ERR_CANCELLED');
  }).timeout(60_000);

  it('hears cancels when its subscriber connection was still in its handshake at start (a loaded server)', async () => {
    // The window a loaded start hits, made certain: the cancels are set up on 'connect', before
    // ioredis's ready check. SUBSCRIBE sent then broke the check, and the reconnect never subscribed.
    // The server's own connections (a named one sends CLIENT SETNAME in its handshake).
    const subscriber = waitingConnection(redis.url, 'cadence-cancels');
    const command = waitingConnection(redis.url, 'cadence-commands');
    try {
      await new Promise((resolve) => subscriber.once('connect', resolve));
      const cancels = new RedisJobCancels(command, subscriber, `handshake-${Date.now()}`);
      const heard = new Promise<string>((resolve) => cancels.listen((id) => resolve(id)));
      await cancels.ready;
      await cancels.request('job-handshake', 'ERR_CANCELLED');
      const result = await Promise.race([
        heard,
        new Promise<string>((resolve) => setTimeout(() => resolve('not heard within 10 s'), 10_000)),
      ]);
      expect(result).to.equal('job-handshake');
    } finally {
      subscriber.disconnect();
      command.disconnect();
    }
  }).timeout(30_000);

  it('records a delivery id with its job in one step: one job per delivery across servers, released when the job is withdrawn', async () => {
    const config = await redisConfig(redis.url);
    const a = await open(config);
    const b = await open(config);
    const outcomes = await Promise.all([
      a.store.create(job('first'), 'delivery-1'),
      b.store.create(job('second'), 'delivery-1'),
      a.store.create(job('third'), 'delivery-1'),
    ]);
    const created = ['first', 'second', 'third'].filter((_, i) => outcomes[i] === undefined);
    expect(created).to.have.length(1);
    expect(outcomes.filter((o) => o !== undefined)).to.deep.equal([created[0], created[0]]);
    expect(await b.store.size()).to.equal(1);
    // Withdrawn (the queue refused it): the job and its claim go; a redelivery may try again.
    await b.store.delete(created[0]!, 'delivery-1');
    expect(await a.store.create(job('again'), 'delivery-1')).to.equal(undefined);
    // Deleting another job never releases the claim of the one that holds it.
    await a.store.delete('first', 'delivery-1');
    expect(await b.store.create(job('late'), 'delivery-1')).to.equal('again');
    expect((await a.store.list({ limit: 10, offset: 0 })).map((j) => j.id)).to.deep.equal(['again']);
    // The queue says whether it holds a job: what a redelivery checks before pointing at it.
    expect(await a.queue.offer('again')).to.equal(true);
    expect(await b.queue.holds('again')).to.equal(true);
    expect(await b.queue.holds('never-offered')).to.equal(false);
  });

  it('records the jobs created within one turn with one script, a delivery claimed earlier in the batch included, and queues them', async () => {
    const config = await redisConfig(redis.url);
    const { store, queue } = await open(config);
    const raw = new Redis(redis.url);
    try {
      const scriptCalls = async (): Promise<number> =>
        [...(await raw.info('commandstats')).matchAll(/^cmdstat_eval(?:sha)?:calls=(\d+)/gm)].reduce(
          (sum, m) => sum + Number(m[1]),
          0,
        );
      await store.create(job('first-alone'));
      const before = await scriptCalls();
      const outcomes = await Promise.all([
        ...Array.from({ length: 20 }, (_, i) => store.create(job(`batch-${i}`), `batch-delivery-${i}`)),
        store.create(job('redelivered'), 'batch-delivery-3'),
      ]);
      expect(await scriptCalls()).to.equal(before + 1);
      expect(outcomes.slice(0, 20)).to.deep.equal(Array.from({ length: 20 }, () => undefined));
      expect(outcomes[20]).to.equal('batch-3');
      expect(await store.get('redelivered')).to.equal(undefined);
      expect(await store.size()).to.equal(21);
      expect((await store.list({ limit: 2, offset: 0 })).map((j) => j.id)).to.deep.equal(['batch-19', 'batch-18']);
      expect(await Promise.all(Array.from({ length: 20 }, (_, i) => queue.offer(`batch-${i}`)))).to.deep.equal(
        Array.from({ length: 20 }, () => true),
      );
      expect(await queue.depth()).to.equal(20);
      expect(await queue.holds('batch-19')).to.equal(true);
    } finally {
      raw.disconnect();
    }
  });

  it('counts rate limits in one window for all servers', async () => {
    const config = await redisConfig(redis.url);
    const a = (await open(config)).rateLimiters('webhooks', 3);
    const b = (await open(config)).rateLimiters('webhooks', 3);
    await a.consume('203.0.113.9');
    await b.consume('203.0.113.9');
    await a.consume('203.0.113.9');
    const refused = await b.consume('203.0.113.9').then(
      () => null,
      (outcome: unknown) => outcome,
    );
    expect(refused).to.have.property('msBeforeNext');
    await b.consume('198.51.100.1');
  });

  it('shares results in a cache bounded in bytes, least recently used first out', async () => {
    const config = await redisConfig(redis.url, { CADENCE_CACHE_MAX_SIZE: '2500' });
    const a = (await open(config)).resultCache(new ServerMetrics());
    const b = (await open(config)).resultCache(new ServerMetrics());
    const result = (n: number) => ({ overall_score: n, padding: 'x'.repeat(1000) }) as unknown as AnalysisResult;
    await a.set('one', result(1));
    await a.set('two', result(2));
    expect((await b.get('one'))!.overall_score).to.equal(1);
    await a.set('three', result(3));
    expect(await b.get('two')).to.equal(undefined);
    expect(await b.get('one')).to.not.equal(undefined);
    const stats = await b.stats();
    expect(stats).to.include({ size: 2, hits: 2, misses: 1, max_bytes: 2500 });
    expect(stats.bytes).to.be.within(2000, 2500);
    await a.clear();
    expect((await b.stats()).size).to.equal(0);
  });

  it('counts waiting ids against the capacity, removes a waiting one, runs them, and takes a handed-back job again', async () => {
    const config = await redisConfig(redis.url, { CADENCE_LIMITS_QUEUE_CAPACITY: '2' });
    const { queue } = await open(config);
    expect(await queue.offer('q1')).to.equal(true);
    expect(await queue.offer('q2')).to.equal(true);
    expect(await queue.hasRoom()).to.equal(false);
    expect(await queue.remove('q1')).to.equal(true);
    expect(await queue.depth()).to.equal(1);
    const runs: string[] = [];
    const finished = new Promise<void>((resolve) => {
      queue.consume(1, async (id) => {
        runs.push(id);
        if (runs.length === 1) return 'hand-back';
        resolve();
        return 'done';
      });
    });
    await finished;
    expect(runs).to.deep.equal(['q2', 'q2']);
  });

  it('starts a job a worker took just before Redis went away once the store is back, rather than failing it', async () => {
    const own = await startRedisServer({ persistent: true });
    try {
      const { store, events } = await open(await redisConfig(own.url));
      await store.create(job('taken'));
      const records = new JobRecords(store, events, new ServerMetrics(), quiet);
      await own.stop();
      // Settled only once the store answers: a start that gave up at once would leave the queue's
      // copy to fail while the record still said queued, and the job would never run.
      const started = records.start('taken').then(
        (running) => ({ running }),
        (error: unknown) => ({ error }),
      );
      await own.restart();
      const outcome = await started;
      expect(outcome).to.not.have.property('error');
      expect(outcome).to.have.nested.property('running.status', 'running');
      expect((await store.get('taken'))!.status).to.equal('running');
    } finally {
      await Promise.all(opened.splice(0).map((b) => b.close()));
      await own.close();
    }
  });

  it('answers 503 unavailable, quickly, while Redis is away, and works again once it is back', async () => {
    const own = await startRedisServer({ persistent: true });
    try {
      const { store } = await open(await redisConfig(own.url));
      await store.create(job('kept'));
      await own.stop();
      const started = Date.now();
      const thrown = await store.get('kept').then(
        () => null,
        (e: unknown) => e,
      );
      // The store raises its outage code; the server's edge answers it 503 unavailable.
      expect(thrown).to.be.instanceOf(CadenceError).with.property('code', 'ERR_DATABASE_CONNECTION_FAILED');
      const error = httpErrorOf(thrown);
      expect(error).to.have.property('name', 'HttpError');
      expect(error).to.include({ status: 503, error: 'unavailable' });
      expect(error.headers).to.have.property('Retry-After');
      expect(Date.now() - started).to.be.below(3000);
      await own.restart();
      await eventually(() => store.get('kept').catch(() => undefined), 'the store answering again', {
        timeoutMs: 10_000,
        everyMs: 100,
      });
      expect((await store.get('kept'))!.id).to.equal('kept');
    } finally {
      await Promise.all(opened.splice(0).map((b) => b.close()));
      await own.close();
    }
  });
});
