// The real `cadence webhook` process for a benchmark: its own folder and configuration, a free
// loopback port, ready once /health answers. Shared by the benchmarks that load the server.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { pinApp } from './cores.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const BIN = path.join(HERE, '..', 'host', 'bin', 'cadence.js');
export const BENCH_SECRET = 'bench-secret-0123456789abcdef';

/**
 * A server configured to take a flood of pushes: limits far above the load (nothing refused, every
 * job kept so none can be missed when counting), and clones allowed to the stalling server on
 * 127.0.0.1 (signed-pushes.mjs), where they wait until their time runs out.
 */
export const INTAKE_LOAD_CONFIG = [
  'rate_limits: { webhooks_per_minute: 100000000, job_queries_per_minute: 100000000 }',
  'limits: { queue_capacity: 1000000, max_jobs: 10000000, shutdown_grace_seconds: 1 }',
];
export const LOOPBACK_CLONES = 'security: { allowed_networks: ["127.0.0.1/32"] }';

export function freePort() {
  return new Promise((resolve) => {
    const probe = http.createServer();
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

/**
 * `config`: lines of the server's configuration file (given with --config: a found .cadence.yaml
 * would set analysis data only); `nodeArgs`: flags for node (a CPU profile, say). A server that
 * exits before `close()` ends the benchmark: its figures would mean nothing.
 */
export async function startCadenceServer({ prefix, config, nodeArgs = [], workerProcesses = 0, workerArgs = [] }) {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  const configFile = path.join(dir, 'cadence-server.yaml');
  writeFileSync(configFile, [...config, 'logging: { level: error }'].join('\n'));
  const port = await freePort();
  let stopping = false;
  const child = spawn(
    process.execPath,
    [...nodeArgs, BIN, 'webhook', '--config', configFile, '--port', String(port), '--host', '127.0.0.1'],
    {
      cwd: dir,
      env: { ...process.env, CADENCE_WEBHOOK_SECRET: BENCH_SECRET, CADENCE_LOGGING_LEVEL: 'error' },
      stdio: ['ignore', 'inherit', 'inherit'],
    },
  );
  child.once('exit', (code, signal) => {
    if (!stopping) {
      console.error(`the server exited (${code ?? signal}) during the run`);
      process.exit(1);
    }
  });
  // `cadence worker` processes sharing the server's configuration (queue.backend: redis).
  const workers = Array.from({ length: workerProcesses }, () =>
    spawn(process.execPath, [BIN, 'worker', '--config', configFile, ...workerArgs], {
      cwd: dir,
      env: { ...process.env, CADENCE_LOGGING_LEVEL: 'error' },
      stdio: ['ignore', 'inherit', 'inherit'],
    }),
  );
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/health`)).ok) break;
    } catch {
      if (i > 200) throw new Error('the server did not start');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  return {
    url: `http://127.0.0.1:${port}`,
    /** The server's and its workers' process ids (to pin them to cores, say). */
    pids: [child.pid, ...workers.map((worker) => worker.pid)],
    close: () =>
      new Promise((resolve) => {
        stopping = true;
        for (const worker of workers) worker.kill('SIGTERM');
        child.on('exit', resolve);
        child.kill('SIGTERM');
        rmSync(dir, { recursive: true, force: true });
      }),
  };
}

/**
 * One of bench/reference-app.mjs's apps in its own process, like the server it is compared with
 * (`bare`, `receiver`, `receiver-redis` with the Redis at `redisUrl`), pinned to the app cores.
 */
export async function startReferenceApp(mode, redisUrl = '') {
  const child = spawn(process.execPath, [path.join(HERE, 'reference-app.mjs'), mode, BENCH_SECRET, redisUrl], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise((resolve, reject) => {
    child.stdout.once('data', (data) => resolve(Number(String(data).trim())));
    child.once('exit', () => reject(new Error(`the ${mode} reference app exited`)));
  });
  pinApp(child.pid);
  return {
    url: `http://127.0.0.1:${port}`,
    pid: child.pid,
    close: () =>
      new Promise((resolve) => {
        child.on('exit', resolve);
        child.kill('SIGTERM');
      }),
  };
}
