import { INTAKE_LOAD_CONFIG, LOOPBACK_CLONES, startCadenceServer } from './cadence-server.mjs';
import { pinApp, pinLoadGenerator } from './cores.mjs';
import { closedLoop, signedPushes, stallServer } from './signed-pushes.mjs';
pinLoadGenerator();
const stall = await stallServer();
const pushes = signedPushes(`https://127.0.0.1:${stall.port}/bench/repo.git`);
const start = async (abl) => {
  if (abl) process.env.ABL = abl; else delete process.env.ABL;
  const s = await startCadenceServer({ prefix: 'ab-', config: [...INTAKE_LOAD_CONFIG, LOOPBACK_CLONES] });
  for (const pid of s.pids) pinApp(pid);
  return s;
};
const a = await start('');
const b = await start(process.env.B ?? '1');
const stop = (s, sig) => s.pids.forEach((p) => process.kill(p, sig));
stop(b, 'SIGSTOP'); await closedLoop(a.url, 10, pushes); stop(b, 'SIGCONT');
stop(a, 'SIGSTOP'); await closedLoop(b.url, 10, pushes); stop(a, 'SIGCONT');
const ra = [], rb = [];
for (let i = 0; i < Number(process.env.R ?? 4); i++) {
  stop(b, 'SIGSTOP'); ra.push((await closedLoop(a.url, 5, pushes)).requests.average); stop(b, 'SIGCONT');
  stop(a, 'SIGSTOP'); rb.push((await closedLoop(b.url, 5, pushes)).requests.average); stop(a, 'SIGCONT');
}
const mean = (x) => x.reduce((s, v) => s + v, 0) / x.length;
console.log('A', ra.map((v) => v.toFixed(0)).join(' '), 'B', rb.map((v) => v.toFixed(0)).join(' '), 'B/A', (mean(rb) / mean(ra)).toFixed(3), 'pairs', rb.map((v, i) => (v / ra[i]).toFixed(2)).join(' '));
await a.close(); await b.close(); stall.close(); process.exit(0);
