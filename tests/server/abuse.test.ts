import { expect } from 'chai';
import { request as httpRequest } from 'node:http';
import { sign } from '@octokit/webhooks-methods';
import {
  eventually,
  makeTempDir,
  startCadenceServer,
  startStalledServer,
  type ServerProcess,
  type TempDir,
  jsonPost,
} from '@cadence-detect/test-support';
import { githubPushPayload, SECRET, serveRepositories, type GitFixtures } from './fixtures.js';

/** Resource limits and cross-site refusals of the routes that start jobs (security issue, findings 5 and 6). */
describe('server: analysis limits, open streams, unauthenticated bodies, cross-site requests', function () {
  this.timeout(90_000);
  let work: TempDir;
  let git: GitFixtures;

  before(async () => {
    work = await makeTempDir('cadence-abuse-');
    git = await serveRepositories(work.path, '127.0.0.2');
  });
  after(async () => {
    await git?.close();
    await work?.remove();
  });

  /** A server of its own folder under the test's, with `config`. */
  async function startServer(config: Record<string, unknown>): Promise<ServerProcess> {
    const { mkdtemp } = await import('node:fs/promises');
    return startCadenceServer({ cwd: await mkdtemp(`${work.path}/srv-`), config });
  }

  async function withServer(
    config: Record<string, unknown>,
    test: (server: ServerProcess) => Promise<void>,
  ): Promise<void> {
    const server = await startServer(config);
    try {
      await test(server);
    } finally {
      await server.stop('SIGKILL');
    }
  }

  const repositoryUrl = (): string => git.daemon.url('acme/human.git');
  const allow2 = { security: { allowed_networks: ['127.0.0.2/32'] } };

  it('limits analyses per client across analyze and stream routes, with the headers on every answer', async () => {
    await withServer({ ...allow2, rate_limits: { analyses_per_minute: 2 } }, async (server) => {
      const first = await server.json('/api/analyze/repository', jsonPost({ url: repositoryUrl() }));
      expect(first.status).to.equal(202);
      expect(first.headers.get('x-ratelimit-limit')).to.equal('2');
      expect(first.headers.get('x-ratelimit-remaining')).to.equal('1');
      const stream = await server.request(`/API/stream/repository?url=${encodeURIComponent(repositoryUrl())}`);
      expect(stream.status).to.equal(200);
      await stream.text();
      const third = await server.json<{ error: string; retry_after: number }>(
        '/api/analyze/website',
        jsonPost({ url: 'http://127.0.0.2:1/' }),
      );
      expect(third.status).to.equal(429);
      expect(third.body.error).to.equal('rate_limited');
      expect(third.body.retry_after).to.be.within(1, 60);
      expect(third.headers.get('retry-after')).to.match(/^\d+$/);
      // Signed pushes have their own budget: a flood of analyses does not starve them.
      const payload = JSON.stringify(githubPushPayload(repositoryUrl(), git.hashes[6]!, git.hashes[9]!));
      const push = await server.json('/webhooks/github', {
        method: 'POST',
        body: payload,
        headers: {
          'content-type': 'application/json',
          'x-github-event': 'push',
          'x-github-delivery': 'abuse-1',
          'x-hub-signature-256': await sign(SECRET, payload),
        },
      });
      expect(push.status).to.equal(202);
    });
  });

  it('caps open streams at limits.max_open_streams (503 beyond) and frees a slot when a stream closes', async () => {
    const stalled = await startStalledServer('127.0.0.2');
    try {
      await withServer({ ...allow2, limits: { max_open_streams: 1 } }, async (server) => {
        const stallUrl = `git://127.0.0.2:${stalled.port}/acme/stall.git`;
        const holder = new AbortController();
        const open = await server.request(`/api/stream/repository?url=${encodeURIComponent(stallUrl)}`, {
          signal: holder.signal,
        });
        expect(open.status).to.equal(200);
        const refused = await server.json<{ error: string }>(
          `/api/stream/repository?url=${encodeURIComponent(stallUrl)}`,
        );
        expect(refused.status).to.equal(503);
        expect(refused.body.error).to.equal('overloaded');
        expect(refused.headers.get('retry-after')).to.match(/^\d+$/);
        holder.abort();
        await open.body?.cancel().catch(() => undefined);
        let again = 503;
        await eventually(
          async () => {
            const answer = await server.request(`/api/stream/repository?url=${encodeURIComponent(repositoryUrl())}`);
            again = answer.status;
            await answer.text();
            return again !== 503;
          },
          'the stream\u2019s place given back',
          { timeoutMs: 5000 },
        );
        expect(again).to.equal(200);
      });
    } finally {
      await stalled.close();
    }
  });

  it('bounds what unauthenticated webhook bodies buffer together: 503 past the budget, nothing lost once it frees', async () => {
    const payload = JSON.stringify(githubPushPayload(repositoryUrl(), git.hashes[6]!, git.hashes[9]!));
    // Room for the push alone, not for the push and the slow body together.
    await withServer(
      { ...allow2, limits: { max_unverified_webhook_bytes: Buffer.byteLength(payload) + 1000 } },
      async (server) => {
        // One slow sender holds the 2,000 bytes it has sent (of 3,000 declared) while the rest trickles in:
        // bytes count as they arrive, not as declared.
        const slow = httpRequest({
          host: '127.0.0.1',
          port: server.port,
          path: '/webhooks/github',
          method: 'POST',
          headers: { 'content-type': 'application/json', 'content-length': '3000', 'x-github-event': 'push' },
        });
        slow.on('error', () => undefined);
        const slowAnswer = new Promise<number>((resolve) =>
          slow.on('response', (response) => {
            response.resume();
            resolve(response.statusCode ?? 0);
          }),
        );
        slow.write(`{"a":"${'x'.repeat(2000 - 6)}`);
        // Once the server holds those bytes, a body of the push's size no longer fits: probed with a
        // wrong signature, so that a probe read whole is refused (401) and starts nothing.
        await eventually(
          async () =>
            (
              await server.json('/webhooks/github', {
                method: 'POST',
                body: payload,
                headers: {
                  'content-type': 'application/json',
                  'x-github-event': 'push',
                  'x-hub-signature-256': `sha256=${'0'.repeat(64)}`,
                },
              })
            ).status === 503,
          'the slow sender\u2019s bytes held',
        );
        const headers = {
          'content-type': 'application/json',
          'x-github-event': 'push',
          'x-github-delivery': 'abuse-2',
          'x-hub-signature-256': await sign(SECRET, payload),
        };
        const refused = await server.json<{ error: string }>('/webhooks/github', {
          method: 'POST',
          body: payload,
          headers,
        });
        expect(refused.status).to.equal(503);
        expect(refused.body.error).to.equal('overloaded');
        slow.end(`${'x'.repeat(1000 - 2)}"}`);
        expect(await slowAnswer).to.equal(401);
        // The forge retries the same delivery: accepted now, one job.
        const accepted = await server.json<{ id: string }>('/webhooks/github', {
          method: 'POST',
          body: payload,
          headers,
        });
        expect(accepted.status).to.equal(202);
        // A declared length above the per-body cap is refused before a byte is read, with the limit named.
        const huge = await new Promise<{ status: number; body: string }>((resolve, reject) => {
          const request = httpRequest({
            host: '127.0.0.1',
            port: server.port,
            path: '/webhooks/github',
            method: 'POST',
            headers: { 'content-type': 'application/json', 'content-length': String(26 * 1024 * 1024) },
          });
          request.on('error', reject);
          request.on('response', (response) => {
            let body = '';
            response.on('data', (chunk: Buffer) => (body += chunk.toString()));
            response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
          });
          request.write('{');
        });
        expect(huge.status).to.equal(413);
        expect(huge.body).to.match(/26214400/);
      },
    );
  });

  it('refuses credentials on git:// and keeps them out of the answer and every log line', async () => {
    await withServer({ ...allow2, logging: { level: 'debug' } }, async (server) => {
      const secretUrl = repositoryUrl().replace('git://', 'git://user:hunter2secret@');
      const answer = await server.json<{ error: string; message: string }>(
        '/api/analyze/repository',
        jsonPost({ url: secretUrl }),
      );
      expect(answer.status).to.equal(400);
      expect(answer.body.error).to.equal('invalid_request');
      expect(answer.body.message).to.not.include('hunter2secret');
      const stream = await server.request(`/api/stream/repository?url=${encodeURIComponent(secretUrl)}`);
      expect(stream.status).to.equal(400);
      expect(await stream.text()).to.not.include('hunter2secret');
      // Every log line of both requests is in (each request's own line is its last).
      await eventually(
        () => server.logs.some((l) => l.message === 'request' && l.path === '/api/stream/repository'),
        'the stream request\u2019s log line',
      );
      expect(JSON.stringify(server.logs)).to.not.include('hunter2secret');
    });
  });

  describe('cross-site requests to routes that start jobs', () => {
    const cases: Array<[string, Record<string, string>, number]> = [
      ['Sec-Fetch-Site: cross-site', { 'sec-fetch-site': 'cross-site' }, 403],
      ['Sec-Fetch-Site: same-site', { 'sec-fetch-site': 'same-site' }, 403],
      ['an Origin of another site', { origin: 'https://evil.example' }, 403],
      ['Origin: null (a sandboxed frame)', { origin: 'null' }, 403],
      ['an allowed origin', { origin: 'https://dashboard.example', 'sec-fetch-site': 'cross-site' }, 202],
      ['Sec-Fetch-Site: same-origin', { 'sec-fetch-site': 'same-origin' }, 202],
      ['Sec-Fetch-Site: none (typed into the address bar)', { 'sec-fetch-site': 'none' }, 202],
      ['neither header (curl, forges)', {}, 202],
    ];
    // One server answers every case: what a case sends changes nothing the next one meets (the
    // accepted ones start one job each, far below the per-client analysis limit).
    let shared: ServerProcess;
    before(async () => {
      shared = await startServer({ ...allow2, api: { allowed_origins: ['https://dashboard.example'] } });
    });
    after(async () => {
      await shared?.stop('SIGKILL');
    });
    for (const [label, headers, expected] of cases) {
      it(`${label} -> ${expected}`, async () => {
        const answer = await shared.json<{ error?: string }>(
          '/api/analyze/repository',
          jsonPost({ url: repositoryUrl() }, headers),
        );
        expect(answer.status).to.equal(expected);
        if (expected === 403) expect(answer.body.error).to.equal('forbidden');
        expect(answer.headers.get('access-control-allow-origin')).to.equal(null);
      });
    }

    it("refuses a cross-site GET stream (an <iframe> elsewhere) before any job exists, and accepts the server's own origin", async () => {
      await withServer(allow2, async (server) => {
        const framed = await server.request(`/api/stream/repository?url=${encodeURIComponent(repositoryUrl())}`, {
          headers: { 'sec-fetch-site': 'cross-site', 'sec-fetch-dest': 'iframe' },
        });
        expect(framed.status).to.equal(403);
        expect(await server.json<unknown[]>('/jobs'))
          .to.have.property('body')
          .that.deep.equals([]);
        const own = await server.json(
          '/api/analyze/repository',
          jsonPost({ url: repositoryUrl() }, { origin: server.url }),
        );
        expect(own.status).to.equal(202);
      });
    });
  });
});
