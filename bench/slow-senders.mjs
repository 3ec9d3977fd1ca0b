// Signed pushes while slow senders hold webhook connections: 50 senders from four loopback addresses
// (127.0.0.2 to 127.0.0.5) each declare a 25 MiB body, send one byte a second and reopen as soon as
// they are cut, while correctly signed pushes arrive from 127.0.0.1 at a steady rate. The pushes'
// acceptance (the share answered 202) and latency are measured without the senders (the baseline)
// and with them, in the same run, against the same server; the figures are the ratios.
import http from 'node:http';
import net from 'node:net';
import { INTAKE_LOAD_CONFIG, startCadenceServer } from './cadence-server.mjs';
import { coresLine, pinApp, pinLoadGenerator } from './cores.mjs';
import { signedPushes } from './signed-pushes.mjs';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 15);
const PUSHES_PER_SECOND = Number(process.env.BENCH_PUSH_RATE ?? 20);
const SENDERS = 50;
const ADDRESSES = ['127.0.0.2', '127.0.0.3', '127.0.0.4', '127.0.0.5'];
const DECLARED = 25 * 1024 * 1024;
// Jobs the network guard refuses at once (a private address): what is measured is intake.
const pushes = signedPushes('https://10.255.255.1/bench/repo.git');

pinLoadGenerator();
const server = await startCadenceServer({ prefix: 'cadence-bench-slow-', config: INTAKE_LOAD_CONFIG });
for (const pid of server.pids) pinApp(pid);
const port = Number(new URL(server.url).port);

/** One signed push on a connection of its own (as a forge sends them): its status and milliseconds. */
function push() {
  const { payload, headers } = pushes.next();
  const started = performance.now();
  return new Promise((resolve) => {
    const request = http.request(
      {
        host: '127.0.0.1',
        port,
        localAddress: '127.0.0.1',
        path: '/webhooks/github',
        method: 'POST',
        headers: { ...headers, 'content-length': Buffer.byteLength(payload) },
        agent: false,
      },
      (response) => {
        response.resume();
        response.on('end', () => resolve({ status: response.statusCode, ms: performance.now() - started }));
      },
    );
    request.on('error', () => resolve({ status: 0, ms: performance.now() - started }));
    request.end(payload);
  });
}

/** Open loop: a push every 1/rate s for `seconds`, whatever the answers; resolves with every answer. */
async function pushFor(seconds) {
  const answers = [];
  const interval = 1000 / PUSHES_PER_SECOND;
  const started = performance.now();
  for (let n = 0; n < seconds * PUSHES_PER_SECOND; n++) {
    answers.push(push());
    const next = started + (n + 1) * interval;
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, next - performance.now())));
  }
  return Promise.all(answers);
}

/** The slow senders, reopening until stopped; counts how each connection ended. */
function startSlowSenders() {
  let running = true;
  const ended = {};
  const open = new Set();
  const sender = (address) => {
    if (!running) return;
    const socket = net.connect({ host: '127.0.0.1', port, localAddress: address });
    open.add(socket);
    let answer = '';
    let ticker;
    socket.on('error', () => undefined);
    socket.on('connect', () => {
      socket.write(
        `POST /webhooks/github HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nX-GitHub-Event: push\r\nContent-Length: ${DECLARED}\r\n\r\n{`,
      );
      ticker = setInterval(() => socket.write('x'), 1000);
    });
    socket.on('data', (chunk) => (answer += chunk.toString('latin1')));
    socket.on('close', () => {
      clearInterval(ticker);
      open.delete(socket);
      const status = /^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1] ?? 'closed without an answer';
      if (running) ended[status] = (ended[status] ?? 0) + 1;
      setImmediate(() => sender(address));
    });
  };
  for (let i = 0; i < SENDERS; i++) sender(ADDRESSES[i % ADDRESSES.length]);
  return {
    ended,
    stop() {
      running = false;
      for (const socket of open) socket.destroy();
    },
  };
}

function summary(answers) {
  const latencies = answers.map((answer) => answer.ms).sort((a, b) => a - b);
  const rank = (p) => latencies[Math.max(0, Math.ceil((p / 100) * latencies.length) - 1)];
  const statuses = {};
  for (const { status } of answers) statuses[status] = (statuses[status] ?? 0) + 1;
  return {
    sent: answers.length,
    accepted: statuses[202] ?? 0,
    acceptance: (statuses[202] ?? 0) / answers.length,
    p50: rank(50),
    p99: rank(99),
    max: latencies.at(-1),
    statuses,
  };
}

const line = (label, s) =>
  `${label.padEnd(22)} ${String(s.accepted).padStart(4)}/${s.sent} accepted (${(100 * s.acceptance).toFixed(1)}%), p50 ${s.p50.toFixed(1)} ms, p99 ${s.p99.toFixed(1)} ms, max ${s.max.toFixed(1)} ms; ${JSON.stringify(s.statuses)}`;

try {
  console.log(
    `slow senders: ${PUSHES_PER_SECOND} signed pushes a second from 127.0.0.1 for ${SECONDS} s each phase; cores: ${coresLine()}`,
  );
  // Warm-up (unmeasured): JIT, the analysis threads loading their engine.
  await pushFor(3);
  const baseline = summary(await pushFor(SECONDS));
  const senders = startSlowSenders();
  // Every sender has connected and declared its 25 MiB before the first measured push.
  await new Promise((resolve) => setTimeout(resolve, 2000));
  const attacked = summary(await pushFor(SECONDS));
  senders.stop();
  console.log(line('baseline', baseline));
  console.log(line(`with ${SENDERS} slow senders`, attacked));
  console.log(`slow-sender connections ended (by status): ${JSON.stringify(senders.ended)}`);
  console.log(
    `ratios (with / without): acceptance ${(attacked.acceptance / baseline.acceptance).toFixed(3)}x, p50 ${(attacked.p50 / baseline.p50).toFixed(2)}x, p99 ${(attacked.p99 / baseline.p99).toFixed(2)}x`,
  );
  if (attacked.acceptance < 1 || attacked.p99 >= 1000) {
    console.log('FAIL: with slow senders, every signed push must be accepted with p99 under 1 s');
    process.exitCode = 1;
  }
} finally {
  await server.close();
}
