// The signed pushes the intake benchmarks send, and how they send them.
import { createHmac } from 'node:crypto';
import autocannon from 'autocannon';
import { BENCH_SECRET as SECRET } from './cadence-server.mjs';

/** Accepts connections and never answers: a clone from it waits until the job's time runs out. */
export async function stallServer() {
  const net = await import('node:net');
  const sockets = new Set();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: server.address().port,
    close: () => {
      for (const s of sockets) s.destroy();
      server.close();
    },
  };
}

/**
 * Each request pushes a different commit, so each carries its own body, signature and delivery id:
 * nothing can be answered from a cache.
 */
export function signedPushes(cloneUrl) {
  let n = 0;
  return { next: () => signedPush(++n, cloneUrl) };
}

function signedPush(n, cloneUrl) {
  const delivery = `bench-${process.pid}-${n}`;
  const payload = JSON.stringify({
    ref: 'refs/heads/main',
    before: '0'.repeat(40),
    after: n.toString(16).padStart(40, '0'),
    repository: { full_name: 'bench/repo', clone_url: cloneUrl },
    commits: [],
    pusher: { name: 'bench' },
  });
  const headers = {
    'content-type': 'application/json',
    'x-github-event': 'push',
    'x-github-delivery': delivery,
    'x-hub-signature-256': `sha256=${createHmac('sha256', SECRET).update(payload).digest('hex')}`,
  };
  return { payload, headers };
}

/** Closed loop: each of the connections sends its next request when the answer to the last arrives. */
export function closedLoop(url, duration, pushes, connections = 32) {
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url,
        connections,
        duration,
        requests: [
          {
            method: 'POST',
            path: '/webhooks/github',
            // A distinct delivery id each time: de-duplication must not turn the load into no-ops.
            setupRequest: (request) => {
              const { payload, headers } = pushes.next();
              return { ...request, headers, body: payload };
            },
          },
        ],
      },
      (error, result) => (error ? reject(error) : resolve(result)),
    );
    autocannon.track(instance, { renderProgressBar: false, renderResultsTable: false, renderLatencyTable: false });
  });
}
