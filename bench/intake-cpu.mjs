// CPU per signed push of the HTTP thread, the Cadence server's (memory backend) against the minimal
// receiver's, each under the same closed loop of 32 connections, from /proc: user and system time
// apart. Throughput ratios on a small machine also carry the cost of waking the load generator,
// which grows as an app slows (docs/deploy.md, Sizing); CPU per push is what the server's own work
// costs. Linux only (it reads /proc/<pid>/task).
import { readdirSync } from 'node:fs';
import { INTAKE_LOAD_CONFIG, LOOPBACK_CLONES, startCadenceServer, startReferenceApp } from './cadence-server.mjs';
import { coresLine, pinApp, pinLoadGenerator } from './cores.mjs';
import { statTicks, TICKS_PER_SECOND } from './proc-stat.mjs';
import { closedLoop, signedPushes, stallServer } from './signed-pushes.mjs';

const WARM_UP_SECONDS = Number(process.env.BENCH_WARM_UP_SECONDS ?? 5);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const TICK_US = 1e6 / TICKS_PER_SECOND;

if (process.platform !== 'linux') {
  console.log('intake-cpu: reads /proc, Linux only; skipped');
  process.exit(0);
}
pinLoadGenerator();
const stall = await stallServer();
const pushes = signedPushes(`https://127.0.0.1:${stall.port}/bench/repo.git`);

/** Each thread's user and system ticks. */
function threadTicks(pid) {
  const ticks = new Map();
  for (const task of readdirSync(`/proc/${pid}/task`)) {
    ticks.set(task, statTicks(`/proc/${pid}/task/${task}/stat`));
  }
  return ticks;
}

/** The busiest thread's CPU per accepted push over one measured closed loop (the HTTP thread). */
async function measure(url, pid) {
  await closedLoop(url, WARM_UP_SECONDS, pushes);
  const before = threadTicks(pid);
  const result = await closedLoop(url, SECONDS, pushes);
  const after = threadTicks(pid);
  const accepted = result.statusCodeStats?.['202']?.count ?? 0;
  let busiest = { user: 0, system: 0 };
  for (const [task, end] of after) {
    const start = before.get(task) ?? { user: 0, system: 0 };
    const used = { user: end.user - start.user, system: end.system - start.system };
    if (used.user + used.system > busiest.user + busiest.system) busiest = used;
  }
  const perPush = (ticks) => (ticks * TICK_US) / Math.max(1, accepted);
  return {
    rate: result.requests.average,
    user: perPush(busiest.user),
    system: perPush(busiest.system),
    accepted,
    refused: result.non2xx ?? 0,
  };
}

const reference = await startReferenceApp('receiver');
const receiverFigures = await measure(reference.url, reference.pid);
await reference.close();
const server = await startCadenceServer({
  prefix: 'cadence-intake-cpu-',
  config: [...INTAKE_LOAD_CONFIG, LOOPBACK_CLONES],
});
for (const pid of server.pids) pinApp(pid);
const serverFigures = await measure(server.url, server.pids[0]);
await server.close();
stall.close();

const line = (name, f) =>
  `  ${name} ${(f.user + f.system).toFixed(1)} µs per push (user ${f.user.toFixed(1)}, system ${f.system.toFixed(1)}), ${f.rate.toFixed(0)} pushes/s, ${f.accepted} accepted, ${f.refused} refused`;
console.log(`cores: ${coresLine()}; each app warmed up for ${WARM_UP_SECONDS} s, then ${SECONDS} s measured`);
console.log('CPU of the HTTP thread per signed push, closed loop of 32 connections:');
console.log(line('minimal receiver:', receiverFigures));
console.log(line('cadence server:  ', serverFigures));
const ratio = (receiverFigures.user + receiverFigures.system) / (serverFigures.user + serverFigures.system);
console.log(
  `  the server's intake does ${ratio.toFixed(2)}x the receiver's pushes per CPU second (its throughput ratio in this run: ${(serverFigures.rate / receiverFigures.rate).toFixed(2)}x)`,
);
process.exit(serverFigures.refused > 0 ? 1 : 0);
