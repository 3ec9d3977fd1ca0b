import { githubPush } from './dist/webhooks/push-payload.js';
const N = 200000;
const body = (n) => JSON.stringify({ ref: 'refs/heads/main', before: '0'.repeat(40), after: n.toString(16).padStart(40, '0'), repository: { full_name: 'bench/repo', clone_url: 'https://127.0.0.1:9/bench/repo.git' }, commits: [], pusher: { name: 'bench' } });
const keep = [];
const mode = process.env.MODE;
gc(); const before = process.memoryUsage().heapUsed;
for (let n = 1; n <= N; n++) {
  const { push } = githubPush(JSON.parse(body(n)));
  const request = { kind: 'repository', url: push.cloneUrl, branch: push.branch, range: { before: push.before, after: push.after } };
  if (mode === 'request') { keep.push(request); continue; }
  if (mode === 'push') { keep.push(push); continue; }
  if (mode === 'iso') { keep.push(new Date().toISOString()); continue; }
  if (mode === 'uuid') { keep.push(crypto.randomUUID()); continue; }
  if (mode === 'delivery') { keep.push(`webhook:github:bench-12345-${n}`); continue; }
  const job = { id: crypto.randomUUID(), status: 'queued', kind: 'repository', source: 'webhook:github', repo: 'bench/repo', branch: push.branch, url: request.url, created_at: new Date().toISOString(), started_at: null, finished_at: null, error: null, error_code: null, request, ...(push.forge ? { forge: push.forge } : {}), ...(push.squashCandidate ? { squash_candidate: true } : {}) };
  keep.push(job);
}
gc(); const after = process.memoryUsage().heapUsed;
console.log(mode ?? 'job', ((after - before) / N).toFixed(0), 'B', keep.length);
