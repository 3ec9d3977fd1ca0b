// `pnpm bench workers`: jobs per minute with 1 and 2 `cadence worker` processes sharing one Redis
// (a redis-server of the run's own) behind an intake-only server, in the same run. 40 on-demand
// analyses of 10 repositories of 2,000 commits served by `git daemon` on 127.0.0.1; the result
// cache is off so that every job does its work, and each repository's mirror is warm first.
import { spawn } from 'node:child_process';
import { mkdtempSync, mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort, startCadenceServer } from './cadence-server.mjs';
import { generateRepository } from './generate-repo.mjs';

const REPOSITORIES = 10;
const COMMITS = 2000;
const JOBS = 40;
const root = path.join(tmpdir(), 'cadence-bench-workers');
const served = path.join(root, 'served');
mkdirSync(served, { recursive: true });
for (let r = 0; r < REPOSITORIES; r++) {
  const source = await generateRepository(path.join(root, `source-${r}`), COMMITS);
  const bare = path.join(served, `acme/repo-${r}.git`);
  spawn('git', ['clone', '--quiet', '--bare', source, bare], { stdio: 'ignore' });
}
await new Promise((resolve) => setTimeout(resolve, 2000));
const gitPort = await freePort();
const daemon = spawn(
  'git',
  ['daemon', '--reuseaddr', `--base-path=${served}`, '--listen=127.0.0.1', `--port=${gitPort}`, '--export-all', served],
  { stdio: 'ignore' },
);
await new Promise((resolve) => setTimeout(resolve, 500));

async function measure(workers) {
  const dir = mkdtempSync(path.join(tmpdir(), 'cadence-bench-workers-redis-'));
  const redisPort = await freePort();
  const redis = spawn(
    'redis-server',
    ['--port', String(redisPort), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'no'],
    { stdio: 'ignore' },
  );
  await new Promise((resolve) => setTimeout(resolve, 300));
  const server = await startCadenceServer({
    prefix: 'cadence-bench-workers-',
    config: [
      `queue: { backend: redis }`,
      `redis: { url: "redis://127.0.0.1:${redisPort}" }`,
      'webhook: { maxWorkers: 0 }',
      'cache: { max_size: 0 }',
      'security: { allowed_networks: ["127.0.0.0/8"] }',
      'rate_limits: { analyses_per_minute: 100000, job_queries_per_minute: 1000000 }',
    ],
    workerProcesses: workers,
    // One job at a time per process: the figure is what a second process adds.
    workerArgs: ['--concurrency', '1'],
  });
  const submit = async (r) => {
    const response = await fetch(`${server.url}/api/analyze/repository`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ url: `git://127.0.0.1:${gitPort}/acme/repo-${r}.git` }),
    });
    return (await response.json()).id;
  };
  const finished = async (ids) => {
    for (;;) {
      const states = await Promise.all(
        ids.map(async (id) => (await (await fetch(`${server.url}/jobs/${id}`)).json()).status),
      );
      if (states.every((s) => s !== 'queued' && s !== 'running')) return states;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };
  // Warm: each repository's mirror exists before timing (what a deployment that has seen them has).
  await finished(await Promise.all(Array.from({ length: REPOSITORIES }, (_, r) => submit(r))));
  const started = performance.now();
  const states = await finished(await Promise.all(Array.from({ length: JOBS }, (_, i) => submit(i % REPOSITORIES))));
  const seconds = (performance.now() - started) / 1000;
  await server.close();
  redis.kill('SIGTERM');
  rmSync(dir, { recursive: true, force: true });
  return { perMinute: (JOBS / seconds) * 60, completed: states.filter((s) => s === 'completed').length };
}

const one = await measure(1);
const two = await measure(2);
daemon.kill();
console.log(
  `${JOBS} analyses of ${REPOSITORIES} repositories of ${COMMITS} commits, warm mirrors, no result cache, one intake-only server, workers of --concurrency 1:`,
);
console.log(`  1 worker process:  ${one.perMinute.toFixed(0)} jobs/min (${one.completed} completed)`);
console.log(
  `  2 worker processes: ${two.perMinute.toFixed(0)} jobs/min (${two.completed} completed), ${(two.perMinute / one.perMinute).toFixed(2)}x one worker`,
);
