import { Writable } from 'node:stream';
import { loadConfig, toPluginConfigView } from '@cadence/config';
import { createEngine } from '@cadence/engine';
import { createLogger } from '@cadence/logger';
import { InMemoryJobCancels } from './dist/jobs/job-cancels.js';
import { InMemoryJobEventChannel } from './dist/jobs/job-events.js';
import { JobManager } from './dist/jobs/job-manager.js';
import { InMemoryJobQueue } from './dist/jobs/job-queue.js';
import { InMemoryJobStore } from './dist/jobs/job-store.js';
import { ServerMetrics } from './dist/metrics.js';
import { SizedResultCache } from './dist/result-cache.js';
import { githubPush } from './dist/webhooks/push-payload.js';
const { config } = await loadConfig({ cwd: '/tmp', env: {} });
const logger = createLogger({ level: 'error', stream: new Writable({ write: (_c, _e, d) => d() }) });
const metrics = new ServerMetrics();
const jobs = new JobManager({ engine: createEngine({ config, pluginConfig: toPluginConfigView(config), logger, plugins: [] }), store: new InMemoryJobStore(1e7), queue: new InMemoryJobQueue(1e7), events: new InMemoryJobEventChannel(), cancels: new InMemoryJobCancels(), cache: new SizedResultCache(1 << 20, metrics), metrics, logger, workers: 0, jobTimeoutMs: 60000, network: null, allowLocalPaths: false, publicUrl: null });
const N = Number(process.env.N ?? 300000);
const body = (n) => JSON.stringify({ ref: 'refs/heads/main', before: '0'.repeat(40), after: n.toString(16).padStart(40, '0'), repository: { full_name: 'bench/repo', clone_url: 'https://127.0.0.1:9/bench/repo.git' }, commits: [], pusher: { name: 'bench' } });
gc(); const before = process.memoryUsage().heapUsed; const t0 = performance.now();
const receiverQueue = [];
for (let n = 1; n <= N; n++) {
  const payload = JSON.parse(body(n));
  if (process.env.MODE === 'receiver') { receiverQueue.push({ id: crypto.randomUUID(), delivery: `bench-1-${n}`, url: payload.repository.clone_url, after: payload.after }); continue; }
  const { push } = githubPush(payload);
  await jobs.receive({ request: { kind: 'repository', url: push.cloneUrl, branch: push.branch, range: { before: push.before, after: push.after } }, source: 'webhook:github', repo: 'bench/repo', branch: push.branch, forge: push.forge, squashCandidate: push.squashCandidate === true }, `webhook:github:bench-1-${n}`);
}
const t1 = performance.now(); gc(); const after = process.memoryUsage().heapUsed;
console.log(receiverQueue.length, process.env.MODE ?? 'server', 'bytes per queued job', ((after - before) / N).toFixed(0), 'µs per job', ((t1 - t0) * 1000 / N).toFixed(2));
process.exit(0);
