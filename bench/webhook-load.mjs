// Signed GitHub webhooks per second and p99 latency of the Cadence server against a bare Koa app
// answering 202, on this machine in the same run; then checks that no accepted webhook was lost.
import { spawn } from 'node:child_process';
import http from 'node:http';
import path from 'node:path';
import {
  freePort,
  INTAKE_LOAD_CONFIG,
  LOOPBACK_CLONES,
  startCadenceServer,
  startReferenceApp,
} from './cadence-server.mjs';
import { coresLine, pinApp, pinLoadGenerator } from './cores.mjs';
import { statTicks, TICKS_PER_SECOND } from './proc-stat.mjs';
import { closedLoop, signedPushes, stallServer } from './signed-pushes.mjs';

const CONNECTIONS = 32;
const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
// What the pushes' jobs do, BENCH_JOBS:
//   long (the default): clone from a server on 127.0.0.1 that accepts and never answers, as a real
//     clone takes seconds: the workers are busy and the rest wait in the queue, so the run measures
//     what the HTTP process does per push (verify, record, enqueue), which is what the receiver does;
//   fast: a private address the network guard refuses at once, so each job runs (queued, started,
//     refused, recorded as failed) within milliseconds and the same process also finishes thousands
//     of jobs a second: intake plus the job machinery at a rate no real clone reaches.
const JOBS = process.env.BENCH_JOBS === 'fast' ? 'fast' : 'long';
const stall = JOBS === 'long' ? await stallServer() : null;
const CLONE_URL = stall ? `https://127.0.0.1:${stall.port}/bench/repo.git` : 'https://10.255.255.1/bench/repo.git';
const pushes = signedPushes(CLONE_URL);

/**
 * The bare app's closed loop (the receiver and the server take turns, below). Each app gets the
 * same unmeasured warm-up first (JIT, the server's analysis threads loading their
 * engine), as a long-running server is warm when its pushes arrive. The threads start with the
 * first jobs and load below the HTTP thread's priority, so under this load they take several
 * seconds: with 3 s of warm-up the first seconds measured still shared the cores with them.
 */
async function run(url) {
  await closedLoop(url, WARM_UP_SECONDS, pushes);
  return closedLoop(url, DURATION, pushes);
}
const accepted202 = (result) => result.statusCodeStats?.['202']?.count ?? 0;
/** CPU seconds the processes `pids` have used (all their threads), from /proc; 0 where there is none. */
function cpuSeconds(pids) {
  let ticks = 0;
  for (const pid of pids) {
    try {
      const { user, system } = statTicks(`/proc/${pid}/stat`);
      ticks += user + system;
    } catch {
      // Not Linux, or the process is gone.
    }
  }
  return ticks / TICKS_PER_SECOND;
}

/** Measured windows per app, taken in turns with the other app's (BENCH_ROUNDS). */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);

/** Several closed-loop windows as one: the mean rate, the worst p99, every status counted. */
function combined(results) {
  const statusCodeStats = {};
  for (const r of results) {
    for (const [code, { count }] of Object.entries(r.statusCodeStats ?? {}))
      statusCodeStats[code] = { count: (statusCodeStats[code]?.count ?? 0) + count };
  }
  return {
    requests: { average: results.reduce((sum, r) => sum + r.requests.average, 0) / results.length },
    latency: { p99: Math.max(...results.map((r) => r.latency.p99)) },
    non2xx: results.reduce((sum, r) => sum + (r.non2xx ?? 0), 0),
    statusCodeStats,
  };
}
const WARM_UP_SECONDS = Number(process.env.BENCH_WARM_UP_SECONDS ?? 10);

/**
 * Open loop at a steady rate: a request every 1/rate s whatever the answers do, as independent
 * senders behave. (autocannon's overallRate sends each second's quota in a burst at its start, which
 * measures the burst rather than the server.)
 */
async function paced(url, rate) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS });
  const target = new URL('/webhooks/github', url);
  const latencies = [];
  const statuses = new Map();
  const inFlight = new Set();
  const send = () => {
    const { payload, headers } = pushes.next();
    const started = performance.now();
    const request = http.request(target, {
      method: 'POST',
      agent,
      headers: { ...headers, 'content-length': Buffer.byteLength(payload) },
    });
    const done = new Promise((resolve) => {
      request.on('response', (response) => {
        response.resume();
        response.on('end', () => {
          latencies.push(performance.now() - started);
          statuses.set(response.statusCode, (statuses.get(response.statusCode) ?? 0) + 1);
          resolve();
        });
      });
      request.on('error', () => {
        statuses.set('error', (statuses.get('error') ?? 0) + 1);
        resolve();
      });
    });
    inFlight.add(done);
    void done.then(() => inFlight.delete(done));
    request.end(payload);
  };
  const start = performance.now();
  let sent = 0;
  while (performance.now() - start < DURATION * 1000) {
    const due = Math.floor(((performance.now() - start) / 1000) * rate);
    while (sent < due) {
      send();
      sent++;
    }
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
  await Promise.all(inFlight);
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const at = (q) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? NaN;
  return {
    sent,
    p50: at(0.5),
    p99: at(0.99),
    accepted: statuses.get(202) ?? 0,
    failed: sent - (statuses.get(202) ?? 0),
  };
}

// The load generator on core 0, every app (and the Redis it uses) on the others: see cores.mjs.
pinLoadGenerator();

// BENCH_BACKEND=redis: the server on the Redis backend (an intake-only server and one `cadence
// worker`), against a receiver that also enqueues into BullMQ on the same Redis.
const BACKEND = process.env.BENCH_BACKEND === 'redis' ? 'redis' : 'memory';
let redisUrl = '';
let stopRedis = async () => undefined;
if (BACKEND === 'redis') {
  const { mkdtempSync, rmSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const dir = mkdtempSync(path.join(tmpdir(), 'cadence-bench-redis-'));
  const port = await freePort();
  const redis = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'no'],
    { stdio: 'ignore' },
  );
  pinApp(redis.pid);
  await new Promise((resolve) => setTimeout(resolve, 300));
  redisUrl = `redis://127.0.0.1:${port}`;
  stopRedis = async () => {
    redis.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  };
}

/** The reference apps get the server's backend: on Redis the receiver also enqueues into BullMQ. */
const referenceApp = (mode) =>
  startReferenceApp(mode === 'receiver' && BACKEND === 'redis' ? 'receiver-redis' : mode, redisUrl);

async function countJobs(url) {
  const ids = new Set();
  for (let offset = 0; ; offset += 100) {
    const response = await fetch(`${url}/jobs?limit=100&offset=${offset}`);
    const page = await response.json();
    for (const job of page) ids.add(job.id);
    if (page.length < 100) return ids.size;
  }
}

const bare = await referenceApp('bare');
const bareResult = await run(bare.url);
await bare.close();
// The receiver and the server, both up and warm, then measured in turns (receiver, server, and
// again): this machine's speed drifts by a quarter within minutes, and a drift between two
// back-to-back windows moves a ratio far less than one between two apps measured minutes apart.
const receiver = await referenceApp('receiver');
const server = await startCadenceServer({
  prefix: 'cadence-load-',
  config: [
    ...INTAKE_LOAD_CONFIG,
    ...(BACKEND === 'redis'
      ? [`queue: { backend: redis }`, `redis: { url: "${redisUrl}" }`, 'webhook: { maxWorkers: 0 }']
      : []),
    ...(stall ? [LOOPBACK_CLONES] : []),
  ],
  workerProcesses: BACKEND === 'redis' ? 1 : 0,
});
for (const pid of server.pids) pinApp(pid);
await closedLoop(receiver.url, WARM_UP_SECONDS, pushes);
const serverWarmUp = await closedLoop(server.url, WARM_UP_SECONDS, pushes);
const receiverRounds = [];
const serverRounds = [];
// The app not being measured is stopped (SIGSTOP) for the other's window: left running, the
// server's deferred work (the garbage collector's marking of a heap holding every queued job) ran
// in the receiver's windows, slowing the receiver by the server's own cost. What each spends while
// stopped is shown, and must be nothing (Linux: /proc).
const idleSpent = { receiver: 0, server: 0 };
const pause = (pids, signal) => {
  for (const pid of pids) process.kill(pid, signal);
};
for (let round = 0; round < ROUNDS; round++) {
  for (const [name, url, measured, other] of [
    ['receiver', receiver.url, receiverRounds, server.pids],
    ['server', server.url, serverRounds, [receiver.pid]],
  ]) {
    pause(other, 'SIGSTOP');
    const before = cpuSeconds(other);
    try {
      measured.push(await closedLoop(url, DURATION, pushes));
    } finally {
      idleSpent[name === 'receiver' ? 'server' : 'receiver'] += cpuSeconds(other) - before;
      pause(other, 'SIGCONT');
    }
  }
}
await receiver.close();
const receiverResult = combined(receiverRounds);
const result = { ...combined(serverRounds), warmUpAccepted: accepted202(serverWarmUp) };
const roundRatios = serverRounds
  .map((r, i) => r.requests.average / receiverRounds[i].requests.average)
  .sort((a, b) => a - b);
// Below saturation: half the rate the server sustained, sent open loop (webhook senders do not wait
// for each other as a closed loop does), to the server and to the minimal receiver.
const halfRate = Math.max(1, Math.round(result.requests.average / 2));
const steady = await paced(server.url, halfRate);
// Every 202 the server gave, the warm-up's included: each must be a job.
const accepted = result.warmUpAccepted + accepted202(result) + steady.accepted;
const jobs = await countJobs(server.url);
await server.close();
const steadyReceiver = await referenceApp('receiver');
const receiverSteady = await paced(steadyReceiver.url, halfRate);
await steadyReceiver.close();

const ratio = result.requests.average / bareResult.requests.average;
const receiverRatio = receiverResult.requests.average / bareResult.requests.average;
const ms = (value) => `${value.toFixed(1)} ms`;
await stopRedis();
stall?.close();
console.log(
  `jobs: ${JOBS === 'long' ? 'long (clones that never finish: the workers stay busy, the queue holds the rest; BENCH_JOBS=fast for jobs refused at once)' : 'fast (refused by the network guard at once: the process also finishes thousands of jobs a second)'}; each app warmed up for ${WARM_UP_SECONDS} s first`,
);
console.log(`cores: ${coresLine()}`);
console.log(
  `backend: ${BACKEND}${BACKEND === 'redis' ? ' (an intake-only server and one cadence worker; the receiver enqueues into BullMQ too)' : ''}`,
);
console.log(
  `closed loop, ${CONNECTIONS} connections, signed, distinct bodies and delivery ids; bare ${DURATION} s, then the receiver and the server in turns, ${ROUNDS} windows of ${DURATION} s each (rates: their mean; p99: the worst window's):`,
);
console.log(
  `  bare Koa 202:         ${bareResult.requests.average.toFixed(0)} req/s, p99 ${bareResult.latency.p99} ms`,
);
console.log(
  `  minimal receiver:     ${receiverResult.requests.average.toFixed(0)} req/s, p99 ${receiverResult.latency.p99} ms (${receiverRatio.toFixed(2)}x bare: reads the body, checks the HMAC, parses the JSON, enqueues)`,
);
console.log(`  cadence server:       ${result.requests.average.toFixed(0)} req/s, p99 ${result.latency.p99} ms`);
const receiverShare = result.requests.average / receiverResult.requests.average;
console.log(
  `  CPU spent while stopped for the other's turn: receiver ${idleSpent.receiver.toFixed(2)} s, server ${idleSpent.server.toFixed(2)} s`,
);
console.log(
  `  the server's rate over the receiver's, window by window: ${roundRatios.map((r) => r.toFixed(2)).join(', ')} (sorted)`,
);
console.log(
  `  throughput ratio: ${ratio.toFixed(2)}x bare, ${receiverShare.toFixed(2)}x minimal receiver (target >= 0.6x the receiver) ${receiverShare >= 0.6 ? 'OK' : 'MISSED'}; p99 ${result.latency.p99} ms (target < 50 ms) ${result.latency.p99 < 50 ? 'OK' : 'MISSED'}`,
);
console.log(`open loop at ${halfRate} req/s (half the server's closed-loop rate), ${DURATION} s:`);
console.log(`  minimal receiver:     p50 ${ms(receiverSteady.p50)}, p99 ${ms(receiverSteady.p99)}`);
console.log(
  `  cadence server:       p50 ${ms(steady.p50)}, p99 ${ms(steady.p99)} (${(steady.p99 / receiverSteady.p99).toFixed(2)}x the receiver's p99; target < 20 ms) ${steady.p99 < 20 ? 'OK' : 'MISSED'}`,
);
// autocannon counts only responses that arrived within the run; requests still in flight at the end
// may have created jobs too, so jobs listed can exceed the 202s counted.
const lost = Math.max(0, accepted - jobs);
const refused = (result.non2xx ?? 0) + steady.failed;
console.log(
  `accepted (202): ${accepted}, jobs listed: ${jobs}, lost: ${lost} ${lost === 0 ? 'OK' : 'MISSED'}; not accepted: ${refused}`,
);
