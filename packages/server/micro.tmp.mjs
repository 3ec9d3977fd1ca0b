import { createHmac, timingSafeEqual } from 'node:crypto';
import { verifyHubSignature } from './dist/webhooks/constant-time.js';
import { githubPush } from './dist/webhooks/push-payload.js';
import { checkBranchName, parseRepositoryUrl } from '@cadence/git-source';
const secret = 'bench-secret-0123456789';
const bodies = Array.from({ length: 1000 }, (_, n) => Buffer.from(JSON.stringify({ ref: 'refs/heads/main', before: '0'.repeat(40), after: (n + 1).toString(16).padStart(40, '0'), repository: { full_name: 'bench/repo', clone_url: 'https://127.0.0.1:9/bench/repo.git' }, commits: [], pusher: { name: 'bench' } })));
const sigs = bodies.map((b) => `sha256=${createHmac('sha256', secret).update(b).digest('hex')}`);
function time(name, fn) {
  for (let i = 0; i < 50000; i++) fn(i % 1000);
  const t0 = performance.now();
  const N = 200000;
  for (let i = 0; i < N; i++) fn(i % 1000);
  console.log(name.padEnd(28), ((performance.now() - t0) * 1000 / N).toFixed(2), 'µs');
}
time('receiver hmac check', (i) => { const e = Buffer.from(`sha256=${createHmac('sha256', secret).update(bodies[i]).digest('hex')}`); const g = Buffer.from(sigs[i]); return g.length === e.length && timingSafeEqual(g, e); });
time('verifyHubSignature', (i) => verifyHubSignature(bodies[i], sigs[i], secret));
time('JSON.parse(toString)', (i) => JSON.parse(bodies[i].toString('utf8')));
const parsed = bodies.map((b) => JSON.parse(b.toString('utf8')));
time('githubPush', (i) => githubPush(parsed[i]));
time('checkBranchName', () => checkBranchName('main'));
time('parseRepositoryUrl', () => parseRepositoryUrl('https://127.0.0.1:9/bench/repo.git', { allowLocalPaths: false }));
time('toISOString+uuid', () => [new Date().toISOString(), crypto.randomUUID()]);
