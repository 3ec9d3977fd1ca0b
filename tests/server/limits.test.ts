import { expect } from 'chai';
import { EventSource } from 'eventsource';
import { createServer } from 'node:net';
import { sign } from '@octokit/webhooks-methods';
import {
  eventually,
  makeTempDir,
  runCadence,
  startCadenceServer,
  startStalledServer,
  waitForJob,
  type ServerProcess,
  type TempDir,
  jsonPost,
} from '@cadence-detect/test-support';
import { githubPushPayload, SECRET, serveRepositories, type GitFixtures } from './fixtures.js';

interface JobBody {
  id: string;
  status: string;
  error_code: string | null;
}

describe('server: limits, guard, authentication, shutdown', function () {
  this.timeout(90_000);
  let work: TempDir;
  let git: GitFixtures;
  let gitOn2: GitFixtures;

  before(async () => {
    work = await makeTempDir('cadence-limits-');
    git = await serveRepositories(work.path, '127.0.0.1');
    gitOn2 = await serveRepositories(work.path, '127.0.0.2');
  });
  after(async () => {
    await git?.close();
    await gitOn2?.close();
    await work?.remove();
  });

  async function withServer(
    config: Record<string, unknown>,
    test: (server: ServerProcess) => Promise<void>,
    args: string[] = [],
  ): Promise<void> {
    const { mkdtemp } = await import('node:fs/promises');
    const dir = await mkdtemp(`${work.path}/srv-`);
    const server = await startCadenceServer({ cwd: dir, config, args });
    try {
      await test(server);
    } finally {
      await server.stop('SIGKILL');
    }
  }

  it('refuses loopback targets by default, and security.allowed_networks lets only the allowed address through', async () => {
    await withServer({ security: { allowed_networks: ['127.0.0.2/32'] } }, async (server) => {
      const refused = await server.json<JobBody>(
        '/api/analyze/repository',
        jsonPost({ url: git.daemon.url('acme/human.git') }),
      );
      expect(await waitForJob<JobBody>(server, refused.body.id)).to.include({
        status: 'failed',
        error_code: 'ERR_PRIVATE_ADDRESS',
      });
      const allowed = await server.json<JobBody>(
        '/api/analyze/repository',
        jsonPost({ url: gitOn2.daemon.url('acme/human.git') }),
      );
      expect(await waitForJob<JobBody>(server, allowed.body.id)).to.include({ status: 'completed' });
    });
  });

  it('answers 503 overloaded with Retry-After when the wait queue is full, creating nothing', async () => {
    const stalled = await startStalledServer();
    try {
      await withServer(
        { webhook: { maxWorkers: 1 }, limits: { queue_capacity: 1 }, security: { allowed_networks: ['127.0.0.0/8'] } },
        async (server) => {
          const url = `git://127.0.0.1:${stalled.port}/acme/stall.git`;
          expect((await server.json('/api/analyze/repository', jsonPost({ url }))).status).to.equal(202);
          expect((await server.json('/api/analyze/repository', jsonPost({ url }))).status).to.equal(202);
          const before = (await server.json<unknown[]>('/jobs')).body.length;
          const gauges = await (await server.request('/metrics')).text();
          expect(gauges).to.match(/^cadence_jobs_active 1$/m);
          expect(gauges).to.match(/^cadence_queue_depth 1$/m);
          const overloaded = await server.json<{ error: string; retry_after: number }>(
            '/api/analyze/repository',
            jsonPost({ url }),
          );
          expect(overloaded.status).to.equal(503);
          expect(overloaded.body.error).to.equal('overloaded');
          expect(overloaded.body.retry_after).to.be.a('number');
          expect(overloaded.headers.get('retry-after')).to.match(/^\d+$/);
          const payload = JSON.stringify(githubPushPayload(url, git.hashes[0]!, git.hashes[1]!));
          const webhook = await server.json('/webhooks/github', {
            method: 'POST',
            headers: {
              'content-type': 'application/json',
              'x-github-event': 'push',
              'x-github-delivery': 'x1',
              'x-hub-signature-256': await sign(SECRET, payload),
            },
            body: payload,
          });
          expect(webhook.status).to.equal(503);
          expect((await server.json<unknown[]>('/jobs')).body.length).to.equal(before);
        },
      );
    } finally {
      await stalled.close();
    }
  });

  it('ends a job that passes the job timeout with status timeout and ERR_JOB_TIMEOUT', async () => {
    const stalled = await startStalledServer();
    try {
      await withServer(
        { limits: { job_timeout_seconds: 1 }, security: { allowed_networks: ['127.0.0.0/8'] } },
        async (server) => {
          const accepted = await server.json<JobBody>(
            '/api/analyze/repository',
            jsonPost({ url: `git://127.0.0.1:${stalled.port}/acme/stall.git` }),
          );
          expect(await waitForJob<JobBody>(server, accepted.body.id)).to.include({
            status: 'timeout',
            error_code: 'ERR_JOB_TIMEOUT',
          });
        },
      );
    } finally {
      await stalled.close();
    }
  });

  it('trips each rate limit with the X-RateLimit headers on every response and a 429 body', async () => {
    await withServer(
      { rate_limits: { job_queries_per_minute: 3, metrics_per_minute: 2, webhooks_per_minute: 2 } },
      async (server) => {
        for (let i = 1; i <= 3; i++) {
          const ok = await server.json('/jobs');
          // Which request of the three, and what the limiter counted: a 429 here says whether the
          // window began with counts that were not this server's.
          expect(
            ok.status,
            `request ${i}: remaining ${ok.headers.get('x-ratelimit-remaining')}, reset ${ok.headers.get('x-ratelimit-reset')}`,
          ).to.equal(200);
          expect(ok.headers.get('x-ratelimit-limit')).to.equal('3');
          expect(ok.headers.get('x-ratelimit-remaining')).to.equal(String(3 - i));
          expect(Number(ok.headers.get('x-ratelimit-reset'))).to.be.above(Date.now() / 1000 - 1);
        }
        const limited = await server.json<{ error: string; retry_after: number }>('/jobs/some-id');
        expect(limited.status).to.equal(429);
        expect(limited.body.error).to.equal('rate_limited');
        expect(limited.body.retry_after).to.be.within(1, 60);
        expect(limited.headers.get('retry-after')).to.equal(String(limited.body.retry_after));
        expect((await server.json('/api/metrics')).status).to.equal(200);
        expect((await server.json('/metrics')).status).to.equal(200);
        expect((await server.json('/api/metrics')).status).to.equal(429);
        const bad = {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-github-event': 'push', 'x-hub-signature-256': 'sha256=00' },
          body: '{}',
        };
        expect((await server.json('/webhooks/github', bad)).status).to.equal(401);
        expect((await server.json('/webhooks/github', bad)).status).to.equal(401);
        const flood = await server.json<{ error: string }>('/webhooks/github', bad);
        expect([flood.status, flood.body.error]).to.deep.equal([429, 'rate_limited']);
        expect((await server.json('/health')).headers.get('x-ratelimit-limit')).to.equal(null);
      },
    );
  });

  it('requires the API token everywhere but /health and the webhooks when one is set', async () => {
    await withServer(
      {},
      async (server) => {
        expect((await server.json('/health')).status).to.equal(200);
        const denied = await server.json<{ error: string }>('/jobs');
        expect([denied.status, denied.body.error]).to.deep.equal([401, 'unauthorized']);
        expect((await server.json('/jobs', { headers: { authorization: 'Bearer wrong' } })).status).to.equal(401);
        expect((await server.json('/jobs', { headers: { authorization: 'Bearer api-token-123' } })).status).to.equal(
          200,
        );
        expect((await server.json('/metrics')).status).to.equal(401);
        const ping = await server.json('/webhooks/github', {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'x-github-event': 'ping',
            'x-hub-signature-256': await sign(SECRET, '{}'),
          },
          body: '{}',
        });
        expect(ping.status).to.equal(200);
      },
      ['--api-token', 'api-token-123'],
    );
  });

  it('leaves /metrics open with api.public_metrics while the rest needs the token', async () => {
    await withServer(
      { api: { public_metrics: true } },
      async (server) => {
        expect((await server.json('/metrics')).status).to.equal(200);
        expect((await server.json('/api/metrics')).status).to.equal(401);
      },
      ['--api-token', 'api-token-123'],
    );
  });

  it('keys rate limits by the rightmost X-Forwarded-For entry that is not a trusted proxy, only when api.trust_proxy is set', async () => {
    const forwarded = (chain: string) => ({ headers: { 'x-forwarded-for': chain } });
    await withServer({ api: { trust_proxy: true }, rate_limits: { job_queries_per_minute: 1 } }, async (server) => {
      // The peer (127.0.0.1) is a trusted proxy; the entry it appended is the client; what the client wrote before it is ignored.
      expect((await server.json('/jobs', forwarded('198.51.100.7, 203.0.113.1'))).status).to.equal(200);
      expect((await server.json('/jobs', forwarded('203.0.113.2'))).status).to.equal(200);
      expect(
        (await server.json('/jobs', forwarded('198.51.100.8, 203.0.113.1'))).status,
        'a spoofed leftmost entry must not give a fresh limit',
      ).to.equal(429);
    });
    await withServer(
      {
        api: { trust_proxy: true, trusted_proxies: ['127.0.0.0/8', '10.0.0.0/8'] },
        rate_limits: { job_queries_per_minute: 1 },
      },
      async (server) => {
        // Two proxies: 10.0.0.1 is trusted too, so the client is the entry left of it.
        expect((await server.json('/jobs', forwarded('203.0.113.1, 10.0.0.1'))).status).to.equal(200);
        expect((await server.json('/jobs', forwarded('203.0.113.2, 10.0.0.1'))).status).to.equal(200);
        expect((await server.json('/jobs', forwarded('9.9.9.9, 203.0.113.1, 10.0.0.1'))).status).to.equal(429);
      },
    );
    await withServer({ rate_limits: { job_queries_per_minute: 1 } }, async (server) => {
      expect((await server.json('/jobs', forwarded('203.0.113.1'))).status).to.equal(200);
      expect((await server.json('/jobs', forwarded('203.0.113.2'))).status).to.equal(429);
    });
  });

  it("limits a route group whatever the path's letter case (the router matches case-insensitively)", async () => {
    await withServer({ rate_limits: { job_queries_per_minute: 2 } }, async (server) => {
      expect((await server.json('/jobs')).status).to.equal(200);
      const upper = await server.json('/JOBS');
      expect(upper.status).to.equal(200);
      expect(upper.headers.get('x-ratelimit-remaining')).to.equal('0');
      expect((await server.json('/Jobs')).status).to.equal(429);
    });
  });

  it('answers 400 to /jobs?status=__proto__ and other inherited names', async () => {
    await withServer({}, async (server) => {
      for (const status of ['__proto__', 'constructor', 'toString', 'hasOwnProperty']) {
        const answer = await server.json<{ error: string }>(`/jobs?status=${status}`);
        expect(answer.status, status).to.equal(400);
        expect(answer.body.error).to.equal('invalid_request');
      }
    });
  });

  it('turns the webhook routes off with webhook.enabled: false while the API keeps serving', async () => {
    await withServer({ webhook: { enabled: false } }, async (server) => {
      expect((await server.json('/webhooks/github', jsonPost({}))).status).to.equal(404);
      expect((await server.json('/health')).status).to.equal(200);
    });
  });

  it('drains on SIGTERM: a stream whose job outlives the grace period gets ERR_SHUTTING_DOWN, and the process exits 0', async () => {
    const stalled = await startStalledServer();
    const { mkdtemp } = await import('node:fs/promises');
    const server = await startCadenceServer({
      cwd: await mkdtemp(`${work.path}/drain-`),
      config: { limits: { shutdown_grace_seconds: 1 }, security: { allowed_networks: ['127.0.0.0/8'] } },
    });
    try {
      const events: Record<string, unknown>[] = [];
      const source = new EventSource(
        `${server.url}/api/stream/repository?url=${encodeURIComponent(`git://127.0.0.1:${stalled.port}/acme/stall.git`)}`,
      );
      const ended = new Promise<void>((resolve) => {
        source.onmessage = (message) => {
          const event = JSON.parse(message.data) as Record<string, unknown>;
          events.push(event);
          if (event.event === 'error') {
            source.close();
            resolve();
          }
        };
      });
      await eventually(() => stalled.connections() > 0, 'the stalled server\u2019s first connection');
      const exit = server.stop('SIGTERM');
      await ended;
      expect(events.at(-1)).to.include({ event: 'error', type: 'error', error: 'ERR_SHUTTING_DOWN' });
      expect(await exit).to.equal(0);
    } finally {
      await server.stop('SIGKILL');
      await stalled.close();
    }
  });

  it('refuses to start without a secret (exit 2), on an invalid file (exit 2), and on a taken port (exit 1)', async () => {
    const noSecret = await runCadence(['webhook', '--port', '0'], { cwd: work.path, env: {} });
    expect(noSecret.code).to.equal(2);
    expect(noSecret.stderr).to.contain('no webhook secret');
    const { mkdtemp, writeFile } = await import('node:fs/promises');
    const dir = await mkdtemp(`${work.path}/bad-`);
    await writeFile(`${dir}/.cadence.yaml`, 'thresholds:\n  prot: 1\n');
    const invalid = await runCadence(['webhook', '--port', '0'], { cwd: dir, env: { CADENCE_WEBHOOK_SECRET: SECRET } });
    expect(invalid.code).to.equal(2);
    expect(invalid.stderr).to.contain('thresholds.prot');
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    try {
      const port = String((taken.address() as { port: number }).port);
      const busy = await runCadence(['webhook', '--port', port, '--host', '127.0.0.1'], {
        cwd: work.path,
        env: { CADENCE_WEBHOOK_SECRET: SECRET },
      });
      expect(busy.code).to.equal(1);
    } finally {
      taken.close();
    }
  });

  it('starts without a secret only when told to, with a warning', async () => {
    const { mkdtemp } = await import('node:fs/promises');
    const server = await startCadenceServer({
      cwd: await mkdtemp(`${work.path}/insecure-`),
      secret: null,
      args: ['--insecure-no-secret'],
    });
    try {
      expect(
        server.logs.some((l) => l.level === 'warn' && String(l.message).includes('WITHOUT a webhook secret')),
      ).to.equal(true);
    } finally {
      await server.stop();
    }
  });
});
