import { expect } from 'chai';
import http from 'node:http';
import { makeTempDir, startCadenceServer, type ServerProcess, type TempDir } from '@cadence-detect/test-support';

interface Answer {
  readonly status: number;
  readonly body: Record<string, unknown>;
}

/** A request with the Host header a browser would send (fetch cannot set Host). */
function send(
  server: ServerProcess,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        host: '127.0.0.1',
        port: server.port,
        method,
        path,
        headers: { ...headers, ...(body ? { 'content-type': 'application/json' } : {}) },
      },
      (response) => {
        let text = '';
        response.on('data', (chunk: Buffer) => (text += chunk.toString()));
        response.on('end', () => {
          let parsed: Record<string, unknown> = {};
          try {
            parsed = JSON.parse(text) as Record<string, unknown>;
          } catch {
            parsed = { text };
          }
          resolve({ status: response.statusCode ?? 0, body: parsed });
        });
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

/**
 * DNS rebinding: a page on http://evil.test:8001 whose name is re-pointed at 127.0.0.1 reaches the
 * server as its "own origin". Without an API token the Host must be one the server answers to.
 */
describe('server: the Host a browser used, when no API token is set', function () {
  this.timeout(60_000);
  let work: TempDir;
  let other: TempDir;
  let server: ServerProcess;
  let tokened: ServerProcess;
  const evil = (extra: Record<string, string> = {}) => ({
    host: 'evil.test:8001',
    origin: 'http://evil.test:8001',
    'sec-fetch-site': 'same-origin',
    ...extra,
  });

  before(async () => {
    work = await makeTempDir('cadence-allowed-host-');
    server = await startCadenceServer({
      cwd: work.path,
      config: {
        server: { public_url: 'https://cadence.example.org/' },
        api: { allowed_hosts: ['cadence.internal', '.corp.example'], trust_proxy: true },
      },
    });
    other = await makeTempDir('cadence-allowed-host-token-');
    tokened = await startCadenceServer({ cwd: other.path, env: { CADENCE_API_TOKEN: 'host-test-token-0123456789' } });
  });
  after(async () => {
    await server?.stop();
    await tokened?.stop();
    await work?.remove();
    await other?.remove();
  });

  it('answers 421 misdirected_request to a rebound name on the API, the dashboard and the cache, creating nothing', async () => {
    const before = await send(server, 'GET', '/jobs', { host: `127.0.0.1:${server.port}` });
    const analyze = await send(
      server,
      'POST',
      '/api/analyze/repository',
      evil(),
      JSON.stringify({ url: 'https://github.com/tj/co' }),
    );
    expect(analyze.status).to.equal(421);
    expect(analyze.body.error).to.equal('misdirected_request');
    expect(String(analyze.body.message)).to.contain('api.allowed_hosts');
    for (const [method, path] of [
      ['GET', '/jobs'],
      ['POST', '/api/cache/clear'],
      ['GET', '/'],
      ['GET', '/api/plugins'],
      ['GET', '/metrics'],
    ] as const) {
      expect((await send(server, method, path, evil())).status, `${method} ${path}`).to.equal(421);
    }
    const after = await send(server, 'GET', '/jobs', { host: `127.0.0.1:${server.port}` });
    expect(after.body).to.deep.equal(before.body);
  });

  it('answers IP literals, localhost names, the public URL\u2019s host and api.allowed_hosts', async () => {
    for (const host of [
      `127.0.0.1:${server.port}`,
      `[::1]:${server.port}`,
      `localhost:${server.port}`,
      'app.localhost',
      'cadence.example.org',
      'CADENCE.INTERNAL:443',
      'corp.example',
      'ci.corp.example',
    ]) {
      expect((await send(server, 'GET', '/jobs', { host })).status, host).to.equal(200);
    }
    for (const host of [
      'evil.test',
      'cadence.internal.evil.test',
      'notcorp.example',
      'example.org',
      'user@127.0.0.1',
      '127.0.0.1/x',
    ]) {
      expect((await send(server, 'GET', '/jobs', { host })).status, host).to.equal(421);
    }
  });

  it('leaves /health and the webhooks to any Host (forges and probes use whatever name)', async () => {
    expect((await send(server, 'GET', '/health', evil())).status).to.equal(200);
    const webhook = await send(
      server,
      'POST',
      '/webhooks/github',
      { host: 'evil.test', 'x-github-event': 'ping', 'x-github-delivery': 'host-1' },
      '{}',
    );
    expect(webhook.status).to.not.equal(421);
  });

  it('reads X-Forwarded-Host from a trusted proxy (loopback here), not the proxy\u2019s own Host', async () => {
    expect(
      (await send(server, 'GET', '/jobs', { host: `127.0.0.1:${server.port}`, 'x-forwarded-host': 'evil.test' }))
        .status,
    ).to.equal(421);
    expect(
      (
        await send(server, 'GET', '/jobs', {
          host: `127.0.0.1:${server.port}`,
          'x-forwarded-host': 'cadence.example.org',
        })
      ).status,
    ).to.equal(200);
  });

  it('says on stderr, for a person, where it listens, where the dashboard is and whether a token is required', () => {
    expect(server.stderr()).to.contain(
      `cadence webhook: listening on http://127.0.0.1:${server.port}, dashboard https://cadence.example.org/, webhooks https://cadence.example.org/webhooks/bitbucket, /webhooks/gitea, /webhooks/github and /webhooks/gitlab, no API token`,
    );
    expect(tokened.stderr())
      .to.contain(`listening on http://127.0.0.1:${tokened.port}, dashboard http://127.0.0.1:${tokened.port}/`)
      .and.contain('API token required');
    expect(tokened.stderr()).to.not.contain('host-test-token');
  });

  it('with an API token, the bearer decides whatever the Host', async () => {
    const answer = await send(tokened, 'GET', '/jobs', {
      host: 'evil.test',
      authorization: 'Bearer host-test-token-0123456789',
    });
    expect(answer.status).to.equal(200);
    expect((await send(tokened, 'GET', '/jobs', { host: 'evil.test' })).status).to.equal(401);
  });
});
