// Where the load benchmarks run their processes. autocannon is one busy thread; sharing a core with
// the app it loads made runs of the same code differ by a third. With two cores or more and
// `taskset`, the load generator (this process) takes core 0 and every app, with the Redis it uses,
// the others: the same for the reference apps and the server.
import { spawnSync } from 'node:child_process';
import os from 'node:os';

const CORES = os.availableParallelism();
const PINNING = CORES >= 2 && spawnSync('taskset', ['-V']).status === 0;
const APP_CORES = CORES === 2 ? '1' : `1-${CORES - 1}`;

function pin(pid, cores) {
  if (PINNING && pid) spawnSync('taskset', ['-a', '-p', '-c', cores, String(pid)], { stdio: 'ignore' });
}

export function pinLoadGenerator() {
  pin(process.pid, '0');
}

/** Every thread of the process `pid` (a server, a worker, Redis, a reference app) onto the app cores. */
export function pinApp(pid) {
  pin(pid, APP_CORES);
}

export function coresLine() {
  return PINNING
    ? `the load generator on core 0, each app (and Redis) on ${APP_CORES}`
    : 'shared (one core, or no taskset)';
}
