import { expect } from 'chai';
import type { AnalysisResult } from '@cadence-detect/plugin-sdk';
import { InMemoryJobQueue } from '../src/jobs/job-queue.js';
import { InMemoryJobStore } from '../src/jobs/job-store.js';
import { retainedResult, MAX_RETAINED_ITEMS } from '../src/jobs/retained-result.js';
import type { Job, JobStatus } from '../src/jobs/job.js';
import { UnverifiedBytes } from '../src/webhooks/unverified-bytes.js';
import { RecentDeliveries } from '../src/webhooks/recent-deliveries.js';
import { newJobId } from '../src/jobs/job-id.js';
import { isoNow } from '../src/jobs/iso-now.js';
import { constantTimeEqual, verifyHubSignature } from '@cadence-detect/forge-kit';
import { createHmac } from 'node:crypto';
import { eventually } from '@cadence-detect/test-support';

let counter = 0;
function job(status: JobStatus, repo = 'acme/widget'): Job {
  const id = `job-${++counter}`;
  return {
    id,
    status,
    kind: 'repository',
    source: 'api',
    repo,
    branch: null,
    url: `https://x.test/${repo}`,
    created_at: new Date().toISOString(),
    started_at: null,
    finished_at: null,
    error: null,
    error_code: null,
    request: { kind: 'repository', url: `https://x.test/${repo}` },
  };
}

describe('job store, queue and limits (in-memory implementations)', () => {
  it('keeps the most recent max_jobs, dropping the oldest final jobs first and never an active one', async () => {
    const store = new InMemoryJobStore(3);
    const running = job('running');
    const done1 = job('completed');
    const done2 = job('failed');
    for (const j of [running, done1, done2, job('queued'), job('completed')]) await store.create(j);
    expect(await store.size()).to.equal(3);
    expect(await store.get(running.id)).to.equal(running);
    expect(await store.get(done1.id)).to.equal(undefined);
    expect(await store.get(done2.id)).to.equal(undefined);
  });

  it('drops ended jobs in the order they ended, and makes room when a job ends while only active ones fill the store', async () => {
    const store = new InMemoryJobStore(3);
    const a = job('running');
    const b = job('running');
    const c = job('queued');
    const d = job('queued');
    for (const j of [a, b, c, d]) await store.create(j);
    // Over the bound with nothing ended: active jobs are kept.
    expect(await store.size()).to.equal(4);
    await store.update(b.id, (j) => (j.status = 'completed'));
    expect(await store.get(b.id)).to.equal(undefined);
    expect(await store.size()).to.equal(3);
    await store.update(c.id, (j) => (j.status = 'running'));
    await store.update(a.id, (j) => (j.status = 'failed'));
    await store.update(c.id, (j) => (j.status = 'completed'));
    // Room for three: a new one pushes out the job that ended first (a), not the one created first.
    await store.create(job('queued'));
    expect(await store.get(a.id)).to.equal(undefined);
    expect(await store.get(c.id)).to.not.equal(undefined);
    expect(await store.size()).to.equal(3);
  });

  it('lists most recent first with status, repo, limit and offset', async () => {
    const store = new InMemoryJobStore(100);
    const jobs = [job('completed', 'a/a'), job('failed', 'b/b'), job('completed', 'a/a'), job('completed', 'b/b')];
    for (const j of jobs) await store.create(j);
    expect((await store.list({ limit: 10, offset: 0 })).map((j) => j.id)).to.deep.equal(
      jobs.map((j) => j.id).reverse(),
    );
    expect(
      (await store.list({ limit: 10, offset: 0, status: 'completed', repo: 'a/a' })).map((j) => j.id),
    ).to.deep.equal([jobs[2]!.id, jobs[0]!.id]);
    expect((await store.list({ limit: 1, offset: 1 })).map((j) => j.id)).to.deep.equal([jobs[2]!.id]);
  });

  it('lists newest first past evicted and removed jobs, also once the creation order has been compacted', async () => {
    const store = new InMemoryJobStore(1000);
    const made: Job[] = [];
    for (let i = 0; i < 6000; i++) {
      const j = job(i % 3 === 0 ? 'queued' : 'completed', `r/${i % 5}`);
      made.push(j);
      await store.create(j);
    }
    // The 2,000 queued jobs are never dropped; every ended one went to keep the store near its bound.
    expect(await store.size()).to.equal(2000);
    for (const j of made.slice(3000, 3600)) await store.delete(j.id);
    const expected = made.filter((j, i) => j.status === 'queued' && (i < 3000 || i >= 3600)).reverse();
    expect((await store.list({ limit: 5000, offset: 0 })).map((j) => j.id)).to.deep.equal(expected.map((j) => j.id));
    const page = await store.list({ limit: 3, offset: 2, status: 'queued', repo: 'r/0' });
    expect(page.map((j) => j.id)).to.deep.equal(
      expected
        .filter((j) => j.repo === 'r/0')
        .slice(2, 5)
        .map((j) => j.id),
    );
  });

  it('caps what a retained result keeps in full while keeping exact counts', () => {
    const detections = Array.from({ length: 5000 }, (_, i) => ({
      strategy: 's',
      category: 'c',
      severity: 'low' as const,
      confidence: i / 5000,
      score: 0.1,
      message: 'm',
      commit: `c${i}`,
    }));
    const suspicions = Array.from({ length: 3000 }, (_, i) => ({
      commit_hash: `c${i}`,
      message: 'm',
      severity: 'low' as const,
      confidence: i / 3000,
      reasons: [],
    }));
    const result = {
      source_type: 'git',
      detections,
      suspicions,
      suspicious_commits: 3000,
      total_commits: 9000,
      strategy_results: [{ name: 's', detections: 5000 }],
    } as unknown as AnalysisResult;
    const kept = retainedResult(result) as AnalysisResult & {
      suspicions: unknown[];
      truncated: { detections: number; suspicions: number };
    };
    expect(kept.detections).to.have.length(MAX_RETAINED_ITEMS);
    expect(kept.suspicions).to.have.length(MAX_RETAINED_ITEMS);
    expect(kept.truncated).to.include({ detections: 5000, suspicions: 3000 });
    expect((kept as unknown as { suspicious_commits: number }).suspicious_commits).to.equal(3000);
    expect(kept.detections[0]!.confidence).to.be.above(0.99);
  });

  it('refuses offers beyond the queue capacity and removes waiting ids', async () => {
    const queue = new InMemoryJobQueue(2);
    expect(await queue.offer('a')).to.equal(true);
    expect(await queue.offer('b')).to.equal(true);
    expect(await queue.hasRoom()).to.equal(false);
    expect(await queue.offer('c')).to.equal(false);
    expect(await queue.remove('a')).to.equal(true);
    expect(await queue.drain()).to.deep.equal(['b']);
    expect(await queue.depth()).to.equal(0);
  });

  it('runs waiting ids first in, first out, one at a time, with removals in between', async () => {
    const queue = new InMemoryJobQueue(100_000);
    for (let i = 0; i < 50_000; i++) await queue.offer(`id-${i}`);
    for (let i = 0; i < 50_000; i += 3) await queue.remove(`id-${i}`);
    await queue.offer('late');
    const taken: string[] = [];
    const expected = Array.from({ length: 50_000 }, (_, i) => i)
      .filter((i) => i % 3 !== 0)
      .map((i) => `id-${i}`);
    await new Promise<void>((resolve) => {
      queue.consume(1, async (id) => {
        taken.push(id);
        if (id === 'late') resolve();
        return 'done';
      });
    });
    expect(taken).to.deep.equal([...expected, 'late']);
    expect(await queue.depth()).to.equal(0);
    await queue.stop();
  });

  it('bounds the bytes unauthenticated webhook bodies hold together', () => {
    const budget = new UnverifiedBytes(100);
    expect(budget.tryReserve('a', 60)).to.equal(true);
    expect(budget.tryReserve('b', 50)).to.equal(false);
    expect(budget.tryReserve('b', 40)).to.equal(true);
    budget.release('a', 60);
    expect(budget.tryReserve('a', 50)).to.equal(true);
    expect(budget.tryReserve('c', 20)).to.equal(false);
    expect(budget.total).to.equal(90);
  });

  it('holds one client to max(25 MiB, capacity / 8), and frees its share as it releases', () => {
    const MiB = 1024 * 1024;
    const budget = new UnverifiedBytes(400 * MiB);
    expect(budget.perClient).to.equal(50 * MiB);
    expect(new UnverifiedBytes(100 * MiB).perClient).to.equal(25 * MiB);
    expect(budget.tryReserve('a', 30 * MiB)).to.equal(true);
    expect(budget.tryReserve('a', 30 * MiB)).to.equal(false);
    expect(budget.tryReserve('b', 30 * MiB)).to.equal(true);
    budget.release('a', 30 * MiB);
    expect(budget.tryReserve('a', 50 * MiB)).to.equal(true);
    expect(budget.total).to.equal(80 * MiB);
  });

  it('records a delivery with its job once, and forgets the claim of a job withdrawn', async () => {
    const store = new InMemoryJobStore(100);
    const first = job('queued');
    expect(await store.create(first, 'd1')).to.equal(undefined);
    expect(await store.create(job('queued'), 'd1')).to.equal(first.id);
    expect(await store.size()).to.equal(1);
    await store.delete(job('queued').id, 'd1');
    expect(await store.create(job('queued'), 'd1')).to.equal(first.id);
    await store.delete(first.id, 'd1');
    const second = job('queued');
    expect(await store.create(second, 'd1')).to.equal(undefined);
    expect(await store.create(job('queued'))).to.equal(undefined);
    expect(await store.size()).to.equal(2);
  });

  it('remembers at least the last `keep` deliveries and at most twice as many, and releases only the claim of the job named', () => {
    const recent = new RecentDeliveries(2);
    recent.set('a', 'job-a');
    recent.set('b', 'job-b');
    recent.set('c', 'job-c');
    expect([recent.get('a'), recent.get('b'), recent.get('c')]).to.deep.equal(['job-a', 'job-b', 'job-c']);
    recent.set('d', 'job-d');
    recent.set('e', 'job-e');
    // a and b were two generations back: forgotten; c and d (the previous generation) and e are kept.
    expect([recent.get('a'), recent.get('b'), recent.get('c'), recent.get('d'), recent.get('e')]).to.deep.equal([
      undefined,
      undefined,
      'job-c',
      'job-d',
      'job-e',
    ]);
    recent.release('c', 'job-other');
    expect(recent.get('c')).to.equal('job-c');
    recent.release('c', 'job-c');
    recent.release('e', 'job-e');
    expect([recent.get('c'), recent.get('e')]).to.deep.equal([undefined, undefined]);
  });

  it('makes job ids that are random version-4 UUIDs', () => {
    const ids = Array.from({ length: 1000 }, () => newJobId());
    for (const id of ids) expect(id).to.match(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(new Set(ids).size).to.equal(ids.length);
  });

  it('stamps job times as ISO 8601 strings of the current millisecond, formatted again once it passes', async () => {
    const before = Date.now();
    const stamp = isoNow();
    const after = Date.now();
    expect(stamp).to.match(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(Date.parse(stamp)).to.be.within(before, after);
    await eventually(() => Date.now() > Date.parse(stamp), 'the next millisecond', { everyMs: 1 });
    const later = isoNow();
    expect(Date.parse(later)).to.be.greaterThan(Date.parse(stamp));
    expect(Math.abs(Date.parse(isoNow()) - Date.now())).to.be.at.most(1);
  });

  it('compares secrets and signatures in constant time, any length, never throwing', () => {
    expect(constantTimeEqual('secret', 'secret')).to.equal(true);
    expect(constantTimeEqual('secret', 'secreT')).to.equal(false);
    expect(constantTimeEqual('', 'secret')).to.equal(false);
    expect(constantTimeEqual('a'.repeat(10_000), 'secret')).to.equal(false);
    const body = '{"a":1}';
    const good = `sha256=${createHmac('sha256', 'k').update(body).digest('hex')}`;
    expect(verifyHubSignature(body, good, 'k')).to.equal(true);
    expect(verifyHubSignature(body, good.toUpperCase().replace('SHA256', 'sha256'), 'k')).to.equal(true);
    for (const bad of [undefined, '', 'sha256=', 'sha256=00', good.slice(0, -1), `sha1=${good.slice(7)}`])
      expect(verifyHubSignature(body, bad, 'k')).to.equal(false);
  });
});
