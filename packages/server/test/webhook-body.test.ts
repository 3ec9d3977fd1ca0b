import http from 'node:http';
import net from 'node:net';
import { expect } from 'chai';
import Koa from 'koa';
import { createLogger } from '@cadence-detect/logger';
import { errorBody } from '../src/middleware/error-body.js';
import { rawWebhookBody, webhookBytes } from '../src/webhooks/webhook-body.js';
import { UnverifiedBytes } from '../src/webhooks/unverified-bytes.js';
import { eventually } from '@cadence-detect/test-support';

/**
 * A webhook route whose body is read only once the test opens its gate, as behind a rate limit
 * counted in Redis; `arrived` counts the requests waiting at it.
 */
async function delayedWebhookServer() {
  let open: () => void = () => undefined;
  const gate = new Promise<void>((resolve) => (open = resolve));
  let arrived = 0;
  const logged: string[] = [];
  const outcomes: Array<{ status: number; error?: string; bytes?: number }> = [];
  const budget = new UnverifiedBytes(1024 * 1024);
  const app = new Koa();
  app.silent = true;
  app.use(async (ctx, next) => {
    await next();
    outcomes.push({ status: ctx.status, error: (ctx.body as { error?: string } | undefined)?.error });
  });
  app.use(errorBody(createLogger({ level: 'info', stream: { write: (line: string) => logged.push(line) } })));
  app.use(async (_ctx, next) => {
    arrived++;
    await gate;
    await next();
  });
  app.use(rawWebhookBody(1024, budget, ['application/json']));
  app.use((ctx) => {
    ctx.status = 202;
    ctx.body = { bytes: webhookBytes(ctx).length };
  });
  const server = http.createServer(app.callback());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    port,
    logged,
    outcomes,
    budget,
    arrived: () => arrived,
    open,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('rawWebhookBody', () => {
  it('answers a sender that hung up before its body was read as a client error, logs nothing and frees the budget', async () => {
    const site = await delayedWebhookServer();
    try {
      const socket = net.connect(site.port, '127.0.0.1');
      const closed = new Promise((resolve) => socket.once('close', resolve));
      await new Promise((resolve) => socket.once('connect', resolve));
      socket.write(
        'POST /webhooks/github HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"ref":',
      );
      await eventually(() => site.arrived() === 1, 'the request waiting at the gate');
      socket.destroy();
      await closed;
      site.open();
      await eventually(() => site.outcomes.length > 0, 'the request\u2019s outcome', { everyMs: 10 });
      expect(site.outcomes).to.deep.equal([{ status: 400, error: 'invalid_request' }]);
      expect(site.logged.filter((line) => line.includes('request failed'))).to.deep.equal([]);
      // What the unread body held was given back.
      expect(site.budget.total).to.equal(0);
    } finally {
      await site.close();
    }
  });

  it('still reads a body that arrives whole after the wait', async () => {
    const site = await delayedWebhookServer();
    try {
      const answer = fetch(`http://127.0.0.1:${site.port}/webhooks/github`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"ref":"refs/heads/main"}',
      });
      await eventually(() => site.arrived() === 1, 'the request waiting at the gate');
      site.open();
      const response = await answer;
      expect(response.status).to.equal(202);
      expect(await response.json()).to.deep.equal({ bytes: 25 });
    } finally {
      await site.close();
    }
  });
});
