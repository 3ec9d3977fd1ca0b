// The reference servers of the webhook load benchmark, each in its own process like the Cadence server:
//   bare      a Koa app answering 202 without reading the request (the baseline);
//   receiver  a Koa app doing the least any correct webhook receiver must do: read the body, check
//             its HMAC in constant time, parse the JSON, enqueue the push in this process's memory
//             (the memory backend's queue: an id and what a worker needs), answer 202. It shows how
//             much of the gap to `bare` no implementation can close on this machine.
//   receiver-redis  the receiver, enqueueing each push into BullMQ on the Redis at argv[4] first
//             (the same backend the server then uses).
import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import Koa from 'koa';

const [mode, secret = '', redisUrl = ''] = process.argv.slice(2);
const app = new Koa();
/** The memory receiver's queue: nothing takes from it, as the server's workers are busy in the benchmark. */
const waiting = [];
const queue =
  mode === 'receiver-redis'
    ? new (await import('bullmq')).Queue('bench-receiver', {
        connection: { url: redisUrl, enableOfflineQueue: false, maxRetriesPerRequest: 1 },
      })
    : null;
if (mode === 'receiver' || mode === 'receiver-redis') {
  app.use(async (ctx) => {
    const chunks = [];
    for await (const chunk of ctx.req) chunks.push(chunk);
    const body = Buffer.concat(chunks);
    const expected = Buffer.from(`sha256=${createHmac('sha256', secret).update(body).digest('hex')}`);
    const given = Buffer.from(ctx.get('x-hub-signature-256'));
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) ctx.throw(401);
    const push = JSON.parse(body.toString('utf8'));
    // Its id a flat string, made as the server makes its own (packages/server/src/jobs/job-id.ts):
    // randomUUID's result is a tree of 20 pieces until read, and the queue holds every id.
    const id = randomUUID();
    id.charCodeAt(0);
    const job = { id, delivery: ctx.get('x-github-delivery'), url: push.repository?.clone_url, after: push.after };
    if (queue) await queue.add('push', job, { jobId: job.delivery, removeOnComplete: true });
    else waiting.push(job);
    ctx.status = 202;
    ctx.body = { status: 'queued' };
  });
} else {
  app.use((ctx) => {
    ctx.status = 202;
    ctx.body = { status: 'queued' };
  });
}
const server = http.createServer(app.callback());
server.listen(0, '127.0.0.1', () => process.stdout.write(`${server.address().port}\n`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
