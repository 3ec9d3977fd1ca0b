import { expect } from 'chai';
import { sign } from '@octokit/webhooks-methods';
import {
  eventually,
  makeTempDir,
  startCadenceServer,
  startCadenceWorker,
  startRedisServer,
  startStalledServer,
  waitForJob,
  type RedisServer,
  type ServerProcess,
  type TempDir,
  jsonPost,
} from '@cadence-detect/test-support';
import { feedOfJob, githubPushPayload, readStream, SECRET, serveRepositories, type GitFixtures } from './fixtures.js';

interface JobBody {
  id: string;
  status: string;
  error_code: string | null;
  error_reason?: string | null;
  result?: { total_commits: number };
}

let prefixes = 0;

/**
 * Past one process: servers and `cadence worker` processes (the real CLI) sharing one Redis of
 * the test's own. Each test has its own key prefix, so the processes of one never see another's jobs.
 */
describe('scale-out: servers and workers sharing Redis (real processes)', function () {
  this.timeout(120_000);
  let work: TempDir;
  let git: GitFixtures;
  let redis: RedisServer;
  const processes: ServerProcess[] = [];

  const config = (redisUrl: string, extra: Record<string, unknown> = {}) => ({
    security: { allowed_networks: ['127.0.0.0/8'] },
    // Short enough for the lost-worker test, long enough that a loaded machine renews its locks in time.
    queue: { backend: 'redis', stall_timeout_seconds: 3 },
    redis: { url: redisUrl, key_prefix: `scale${++prefixes}` },
    limits: { stream_keepalive_seconds: 0.5, shutdown_grace_seconds: 2 },
    ...extra,
  });
  /** One configuration, written once in a folder of its own, shared by the processes of a test. */
  const deployment = async (settings: Record<string, unknown>) => {
    const dir = await makeTempDir('cadence-deployment-');
    const cwd = dir.path;
    const redisSettings = settings.redis as { url: string; key_prefix: string };
    // Also in the environment, which wins over the file: the run that puts every other test's
    // servers on a Redis of its own (CADENCE_TEST_REDIS_URL) must not move these.
    const env = {
      CADENCE_QUEUE_BACKEND: 'redis',
      CADENCE_REDIS_URL: redisSettings.url,
      CADENCE_REDIS_KEY_PREFIX: redisSettings.key_prefix,
    };
    let first = true;
    const withConfig = () => {
      const options = first ? { cwd, env, config: settings } : { cwd, env };
      first = false;
      return options;
    };
    return {
      server: async (workers: number) => {
        const started = await startCadenceServer({ ...withConfig(), args: ['--workers', String(workers)] });
        processes.push(started);
        return started;
      },
      worker: async () => {
        const started = await startCadenceWorker({ ...withConfig(), args: ['--concurrency', '2'] });
        processes.push(started);
        return started;
      },
      remove: () => dir.remove(),
    };
  };

  before(async () => {
    work = await makeTempDir('cadence-scale-');
    git = await serveRepositories(work.path);
    redis = await startRedisServer();
  });
  afterEach(async () => {
    await Promise.all(processes.splice(0).map((p) => p.stop('SIGKILL')));
  });
  after(async () => {
    await redis?.close();
    await git?.close();
    await work?.remove();
  });

  it('shows a job submitted on one server and run by a worker on another server\u2019s job feed, to its end', async () => {
    const site = await deployment(config(redis.url));
    const a = await site.server(0);
    const b = await site.server(0);
    await site.worker();
    const seen = await feedOfJob(
      `${b.url}/events`,
      async () =>
        (await a.json<JobBody>('/api/analyze/repository', jsonPost({ url: git.daemon.url('acme/human.git') }))).body.id,
    );
    expect(seen.at(-1)).to.include({ status: 'completed', repo: 'acme/human' });
  });

  it('runs a job submitted on one server on a worker, and another server reads and follows it', async () => {
    const site = await deployment(config(redis.url));
    const a = await site.server(0);
    const b = await site.server(0);
    await site.worker();
    const health = await a.json<Record<string, unknown>>('/health');
    expect(health.body).to.include({ status: 'ok', backend: 'redis', redis: 'up' });

    const accepted = await a.json<JobBody>(
      '/api/analyze/repository',
      jsonPost({ url: git.daemon.url('acme/human.git') }),
    );
    expect(accepted.status).to.equal(202);
    const followed = await readStream(`${b.url}/jobs/${accepted.body.id}/events`);
    expect(followed.at(-1)).to.include({ event: 'complete', job_id: accepted.body.id });
    const job = await waitForJob<JobBody>(b, accepted.body.id);
    expect(job.status).to.equal('completed');
    expect(job.result!.total_commits).to.equal(10);
    const listed = await b.json<JobBody[]>('/jobs?status=completed');
    expect(listed.body.map((j) => j.id)).to.include(accepted.body.id);
    // An intake-only server runs nothing itself: the worker did.
    expect(a.logs.some((l) => l.message === 'job started')).to.equal(false);
    // Its queue gauge is read from Redis.
    expect(await (await a.request('/metrics')).text()).to.match(/^cadence_queue_depth 0$/m);

    // A stream started on one server follows its job on the worker, from the first event.
    const streamed = await readStream(`${a.url}/api/stream/repository`, { url: git.daemon.url('acme/burst.git') });
    expect(streamed[0]).to.include({ event: 'start' });
    expect(streamed.at(-1)).to.include({ event: 'complete' });
    await site.remove();
  });

  it('cancels on one server a job running on a worker', async () => {
    const stalled = await startStalledServer();
    try {
      const site = await deployment(config(redis.url));
      const a = await site.server(0);
      const b = await site.server(0);
      const worker = await site.worker();
      const accepted = await a.json<JobBody>(
        '/api/analyze/repository',
        jsonPost({ url: `git://127.0.0.1:${stalled.port}/acme/slow.git` }),
      );
      await eventually(
        () => worker.logs.some((l) => l.message === 'job started' && l.job_id === accepted.body.id),
        'the worker starting the job',
      );
      const cancelled = await b.json<JobBody>(`/jobs/${accepted.body.id}/cancel`, { method: 'POST' });
      expect(cancelled.status, JSON.stringify(cancelled.body)).to.equal(200);
      const job = await waitForJob<JobBody>(a, accepted.body.id);
      expect(job).to.include({ status: 'cancelled', error_code: 'ERR_CANCELLED' });
      await site.remove();
    } finally {
      await stalled.close();
    }
  });

  it('retries a job whose worker was killed, once, then fails it (ERR_OUT_OF_MEMORY, reason worker_lost)', async () => {
    const stalled = await startStalledServer();
    try {
      const site = await deployment(config(redis.url));
      const a = await site.server(0);
      const accepted = await a.json<JobBody>(
        '/api/analyze/repository',
        jsonPost({ url: `git://127.0.0.1:${stalled.port}/acme/slow.git` }),
      );
      let worker = await site.worker();
      for (let attempt = 1; attempt <= 2; attempt++) {
        const current = worker;
        await eventually(
          () => current.logs.some((l) => l.message === 'job started' && l.job_id === accepted.body.id),
          `worker ${attempt} starting the job`,
          { timeoutMs: 20_000 },
        );
        await current.stop('SIGKILL');
        // The next worker's stalled-job check finds the dead one's job.
        worker = await site.worker();
      }
      const job = await waitForJob<JobBody>(a, accepted.body.id, 30_000);
      // The interface's nearest code, the engine's own cause beside it (docs/http-api.md, Error codes).
      expect(job).to.include({ status: 'failed', error_code: 'ERR_OUT_OF_MEMORY', error_reason: 'worker_lost' });
      await site.remove();
    } finally {
      await stalled.close();
    }
  });

  it('hands a running job back to the queue when a worker stops on SIGTERM, and another worker runs it', async () => {
    const stalled = await startStalledServer();
    try {
      const site = await deployment(config(redis.url));
      const a = await site.server(0);
      const first = await site.worker();
      const accepted = await a.json<JobBody>(
        '/api/analyze/repository',
        jsonPost({ url: `git://127.0.0.1:${stalled.port}/acme/slow.git` }),
      );
      await eventually(
        () => first.logs.some((l) => l.message === 'job started' && l.job_id === accepted.body.id),
        'the first worker starting the job',
      );
      expect(await first.stop('SIGTERM')).to.equal(0);
      expect(first.logs.some((l) => l.message === 'job handed back' && l.job_id === accepted.body.id)).to.equal(true);
      expect((await a.json<JobBody>(`/jobs/${accepted.body.id}`)).body.status).to.equal('queued');
      const second = await site.worker();
      await eventually(
        () => second.logs.some((l) => l.message === 'job started' && l.job_id === accepted.body.id),
        'the second worker starting the job',
      );
      expect((await a.json<JobBody>(`/jobs/${accepted.body.id}`)).body.status).to.equal('running');
      await site.remove();
    } finally {
      await stalled.close();
    }
  });

  it('serves the queue dashboard at /admin/queues behind the API token, when asked', async () => {
    const site = await deployment(
      config(redis.url, { queue: { backend: 'redis', dashboard: true }, api: { token: 'dashboard-token-0123456789' } }),
    );
    const a = await site.server(0);
    expect((await a.request('/admin/queues')).status).to.equal(401);
    expect((await a.request('/admin/queues/api/queues')).status).to.equal(401);
    const auth = { headers: { authorization: 'Bearer dashboard-token-0123456789' } };
    const page = await a.request('/admin/queues', auth);
    expect(page.status).to.equal(200);
    expect(page.headers.get('content-type')).to.contain('text/html');
    const queues = await a.json<{ queues: { name: string }[] }>('/admin/queues/api/queues', auth);
    expect(queues.status).to.equal(200);
    expect(queues.body.queues.map((q) => q.name)).to.include('analysis');
    await site.remove();
  });

  it('holds rate limits across two servers', async () => {
    const site = await deployment(config(redis.url, { rate_limits: { job_queries_per_minute: 3 } }));
    const a = await site.server(0);
    const b = await site.server(0);
    const statuses = [];
    for (const server of [a, b, a, b]) statuses.push((await server.request('/jobs')).status);
    expect(statuses).to.deep.equal([200, 200, 200, 429]);
    await site.remove();
  });

  it('answers 503 unavailable while Redis is away, accepts nothing it cannot record, and loses no accepted webhook', async () => {
    const own = await startRedisServer({ persistent: true });
    try {
      const site = await deployment(config(own.url));
      const a = await site.server(0);
      await site.worker();
      let delivery = 0;
      const push = async (): Promise<{
        status: number;
        body: { job_id?: string; error?: string };
        headers: Headers;
      }> => {
        const body = JSON.stringify(
          githubPushPayload(git.daemon.url('acme/human.git'), git.hashes[6]!, git.hashes[9]!),
        );
        return a.json('/webhooks/github', {
          method: 'POST',
          body,
          headers: {
            'x-github-event': 'push',
            'x-github-delivery': `outage-${++delivery}`,
            'x-hub-signature-256': await sign(SECRET, body),
            'content-type': 'application/json',
          },
        });
      };
      const accepted: string[] = [];
      for (let i = 0; i < 3; i++) accepted.push((await push()).body.job_id!);
      await own.stop();
      const during = await push();
      expect(during.status).to.equal(503);
      expect(during.body.error).to.equal('unavailable');
      expect(during.headers.get('retry-after')).to.match(/^\d+$/);
      const health = await a.json<Record<string, unknown>>('/health');
      expect(health.status).to.equal(503);
      expect(health.body).to.include({ status: 'unavailable', redis: 'down' });
      await own.restart();
      await eventually(async () => (await a.json('/health')).status === 200, 'the server healthy again', {
        timeoutMs: 20_000,
      });
      for (let i = 0; i < 3; i++) {
        const after = await push();
        expect(after.status).to.equal(202);
        accepted.push(after.body.job_id!);
      }
      for (const id of accepted) expect((await waitForJob<JobBody>(a, id, 30_000)).status).to.equal('completed');
      await site.remove();
    } finally {
      await own.close();
    }
  });
});
