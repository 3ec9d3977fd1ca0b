import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { type JobInfo, type PluginLogger } from '@cadence-detect/plugin-sdk';
import {
  classifyForgeFailure,
  ForgeHttpError,
  forgeReportCall,
  forgeReportOutcome,
  forgeRequest,
  PendingStatuses,
  type ForgeApi,
} from '../src/index.js';

interface Seen {
  method: string;
  url: string;
  authorization: string | undefined;
  body: string;
}

/** A forge's API on 127.0.0.1 whose answers the test scripts, one per request, in order. */
async function fakeForge(
  answers: ((res: ServerResponse, seen: Seen) => void)[],
): Promise<{ api: ForgeApi; seen: Seen[]; server: Server }> {
  const seen: Seen[] = [];
  const server = createServer((req: IncomingMessage, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      const entry = { method: req.method!, url: req.url!, authorization: req.headers.authorization, body };
      seen.push(entry);
      const answer = answers.shift();
      if (answer) answer(res, entry);
      else res.writeHead(500).end('no answer scripted');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return { api: { base: `http://127.0.0.1:${port}/api`, authorization: 'token s3cret', label: 'Forge' }, seen, server };
}

const json =
  (status: number, value: unknown, headers: Record<string, string> = {}) =>
  (res: ServerResponse) =>
    res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(value));

const job = (deadlineMs: number): JobInfo =>
  ({
    id: 'job-1',
    forge: { forge: 'acme', repository: 'team/app', sha: 'a'.repeat(40) },
    deadline: Date.now() + deadlineMs,
    url: null,
  }) as unknown as JobInfo;

describe('forge calls: one client, one retry policy for forges without a client library', () => {
  const servers: Server[] = [];
  afterEach(() => servers.splice(0).forEach((s) => s.close()));

  it('never carries the token in an error: a body echoing the Authorization header is redacted before it is cut', async () => {
    const token = 'tok_' + 'x9'.repeat(30);
    for (const padding of [0, 200 - 'GET /x authorization: token '.length - 20]) {
      const forge = await fakeForge([
        (res, seen) =>
          res
            .writeHead(502, { 'content-type': 'text/plain' })
            .end(`${'.'.repeat(padding)}GET /x authorization: ${seen.authorization ?? ''} and more after it`),
      ]);
      servers.push(forge.server);
      const api = { ...forge.api, authorization: `token ${token}` };
      const error = await forgeRequest(api, 'GET', '/x', AbortSignal.timeout(5000)).then(
        () => null,
        (e: unknown) => e as ForgeHttpError,
      );
      expect(error).to.be.instanceOf(ForgeHttpError);
      expect(error!.message).to.not.contain(token.slice(0, 8));
      expect(error!.message).to.contain('[redacted]');
    }
  });

  it('sends JSON with the plugin’s Authorization and reads JSON back; a 204 is undefined', async () => {
    const forge = await fakeForge([json(201, { id: 7 }), (res) => res.writeHead(204).end()]);
    servers.push(forge.server);
    const created = await forgeRequest<{ id: number }>(forge.api, 'POST', '/things', AbortSignal.timeout(5000), {
      a: 1,
    });
    expect(created).to.deep.equal({ id: 7 });
    expect(await forgeRequest(forge.api, 'DELETE', '/things/7', AbortSignal.timeout(5000))).to.equal(undefined);
    expect(forge.seen[0]).to.include({ method: 'POST', url: '/api/things', authorization: 'token s3cret' });
    expect(JSON.parse(forge.seen[0]!.body)).to.deep.equal({ a: 1 });
  });

  it('throws a ForgeHttpError with the status, the Retry-After and the start of the body, never following a redirect', async () => {
    const elsewhere = await fakeForge([json(200, { stolen: true })]);
    servers.push(elsewhere.server);
    const forge = await fakeForge([
      json(429, { message: 'slow down' }, { 'retry-after': '3' }),
      (res) => res.writeHead(302, { location: `${elsewhere.api.base}/x` }).end(),
    ]);
    servers.push(forge.server);
    const limited = (await forgeRequest(forge.api, 'GET', '/a?page=2', AbortSignal.timeout(5000)).catch(
      (e: unknown) => e,
    )) as ForgeHttpError;
    expect(limited).to.be.instanceOf(ForgeHttpError);
    expect(limited).to.include({ status: 429, retryAfterMs: 3000 });
    expect(limited.message).to.equal('Forge answered 429 to GET /a: {"message":"slow down"}');
    const redirected = await forgeRequest(forge.api, 'GET', '/b', AbortSignal.timeout(5000)).catch((e) => e);
    expect(redirected).to.be.instanceOf(Error);
    expect(elsewhere.seen, 'the token never goes where a redirect points').to.have.length(0);
  });

  it('reads a failure by its status: rate limit, the token’s business, the forge away, the reporter’s own', () => {
    const read = (status: number | null) =>
      classifyForgeFailure(status === null ? new TypeError('fetch failed') : new ForgeHttpError(status, 2000, 'x'));
    expect(read(429)).to.deep.equal({ code: 'ERR_FORGE_RATE_LIMIT', status: 429, retryAfterMs: 2000 });
    expect([401, 403, 404].map((s) => read(s).code)).to.deep.equal(Array(3).fill('ERR_FORGE_AUTH'));
    expect(read(503)).to.deep.equal({ code: 'ERR_FORGE_UNAVAILABLE', status: 503, retryAfterMs: 2000 });
    expect(read(null)).to.deep.equal({ code: 'ERR_FORGE_UNAVAILABLE', status: null, retryAfterMs: null });
    expect(read(422).code).to.equal('ERR_REPORTER_FAILED');
  });

  it('asks a report again after a 503 (as Retry-After says) and not after a 401, and never throws', async () => {
    const forge = await fakeForge([
      json(503, {}, { 'retry-after': '0' }),
      json(200, { ok: 1 }),
      json(401, { message: 'bad token' }),
    ]);
    servers.push(forge.server);
    const call = (signal: AbortSignal) => forgeRequest(forge.api, 'GET', '/s', signal);
    expect(await forgeReportCall(call, { deadline: Date.now() + 10_000 })).to.deep.equal({
      ok: true,
      value: { ok: 1 },
    });
    const refused = await forgeReportCall(call, { deadline: Date.now() + 10_000 });
    expect(refused).to.include({ ok: false, code: 'ERR_FORGE_AUTH', status: 401 });
    expect(forge.seen).to.have.length(3);
  });

  it('stops retrying when told to, and says so in the reason', async () => {
    const stop = new AbortController();
    let calls = 0;
    const outcome = await forgeReportCall(
      async () => {
        if (++calls === 1) stop.abort();
        throw new ForgeHttpError(503, null, 'Forge answered 503');
      },
      { deadline: Date.now() + 10_000, stop: stop.signal },
    );
    expect(calls).to.equal(1);
    expect(outcome).to.include({ ok: false, code: 'ERR_FORGE_UNAVAILABLE' });
    expect(outcome.ok === false && outcome.reason).to.match(/stopped retrying when the final status went ahead$/);
  });

  it('records an outcome with its target and state, and logs a failure without the call’s text', () => {
    const warnings: unknown[][] = [];
    const logger = { warn: (...args: unknown[]) => warnings.push(args) } as unknown as PluginLogger;
    const report = { reporter: 'report-acme', forge: 'acme', logger };
    const done = forgeReportOutcome(report, 'commit-status', job(1000), 'success', { ok: true, value: null });
    expect(done).to.include({ reporter: 'report-acme', forge: 'acme', target: `team/app@${'a'.repeat(40)}`, ok: true });
    expect(warnings).to.have.length(0);
    const failed = forgeReportOutcome(report, 'commit-status', job(1000), 'failure', {
      ok: false,
      code: 'ERR_FORGE_AUTH',
      status: 401,
      reason: 'HTTP 401',
    });
    expect(failed).to.include({ ok: false, error_code: 'ERR_FORGE_AUTH', reason: 'HTTP 401' });
    expect(warnings).to.have.length(1);
  });

  it('lets the final status wait for the pending one, and stops a pending one still stuck after the grace', async () => {
    const pending = new PendingStatuses(50);
    const order: string[] = [];
    pending.begin(job(5000), async () => {
      await Promise.resolve();
      order.push('pending');
    });
    await pending.settle(job(5000));
    order.push('final');
    expect(order).to.deep.equal(['pending', 'final']);

    let stopped: AbortSignal | null = null;
    pending.begin(job(5000), (stop) => {
      stopped = stop;
      return new Promise<void>((resolve) => stop.addEventListener('abort', () => resolve()));
    });
    await pending.settle(job(5000));
    expect(stopped!.aborted).to.equal(true);
    await pending.settle(job(5000)); // settled once: a second settle has nothing to wait for
  });
});
