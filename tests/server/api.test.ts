import { expect } from 'chai';
import { EventSource } from 'eventsource';
import {
  eventually,
  makeTempDir,
  startCadenceServer,
  startStalledServer,
  waitForJob,
  type ServerProcess,
  type TempDir,
  jsonPost,
} from '@cadence-detect/test-support';
import { feedOfJob, readStream, serveRepositories, type GitFixtures } from './fixtures.js';

interface JobBody {
  id: string;
  job_id: string;
  status: string;
  source: string;
  repo: string;
  error_code: string | null;
  error_reason?: string | null;
  error?: string | null;
  branch: string | null;
  result?: {
    total_commits: number;
    suspicious_commits: number;
    overall_score: number;
    assessment: string;
    source_type: string;
    strategy_results: unknown[];
  };
}

describe('server: on-demand analysis, jobs, streams, errors', function () {
  this.timeout(60_000);
  let work: TempDir;
  let git: GitFixtures;
  let server: ServerProcess;

  before(async () => {
    work = await makeTempDir('cadence-server-');
    git = await serveRepositories(work.path);
    server = await startCadenceServer({
      cwd: work.path,
      // The heuristic scoring: the burst fixture's verdict is then fixed by the thresholds alone.
      config: {
        security: { allowed_networks: ['127.0.0.0/8'] },
        strategies: { disabled: ['commit-model'] },
        limits: { stream_keepalive_seconds: 0.2, job_timeout_seconds: 30 },
      },
    });
  });
  after(async () => {
    await server?.stop();
    await git?.close();
    await work?.remove();
  });

  it('answers /health with the health record', async () => {
    const { status, body } = await server.json<Record<string, unknown>>('/health');
    expect(status).to.equal(200);
    expect(body).to.include.all.keys(
      'status',
      'timestamp',
      'time',
      'uptime_seconds',
      'jobs_processed',
      'active_jobs',
      'queue_depth',
    );
    expect(body.status).to.equal('ok');
  });

  it('analyzes a repository on demand: 202, then the job completes with both result forms', async () => {
    const accepted = await server.json<JobBody & { message: string }>(
      '/api/analyze/repository',
      jsonPost({ url: git.daemon.url('acme/burst.git') }),
    );
    expect(accepted.status).to.equal(202);
    expect(accepted.body).to.include({ status: 'queued' });
    expect(accepted.body.id).to.equal(accepted.body.job_id);
    const job = await waitForJob<JobBody>(server, accepted.body.id);
    expect(job.status, JSON.stringify(job)).to.equal('completed');
    expect(job).to.include({ source: 'api', repo: 'acme/burst', error_code: null });
    expect(job.branch, 'a request that named no branch shows the branch analyzed').to.equal('main');
    expect(job.result).to.include({ total_commits: 6, source_type: 'git', assessment: 'likely_ai_generated' });
    expect(job.result).to.include.all.keys(
      'suspicions',
      'detections',
      'strategy_results',
      'metrics',
      'suspicion_score',
      'source_id',
    );
    const result = await server.json<{ overall_score: number }>(`/api/results/${job.id}`);
    expect(result.status).to.equal(200);
    expect(result.body.overall_score).to.equal(job.result!.overall_score);
    const list = await server.json<JobBody[]>('/jobs?status=completed&repo=acme/burst');
    expect(list.body[0]!.result).to.deep.equal({
      suspicious_commits: job.result!.suspicious_commits,
      overall_score: job.result!.overall_score,
      assessment: job.result!.assessment,
    });
  });

  it("serves a finished job's page: the same HTML report the CLI writes, under its own CSP; 409 before it ends, 404 for none", async () => {
    const accepted = await server.json<JobBody>(
      '/api/analyze/repository',
      jsonPost({ url: git.daemon.url('acme/burst.git') }),
    );
    const job = await waitForJob<JobBody>(server, accepted.body.id);
    expect(job.status).to.equal('completed');
    const page = await server.request(`/jobs/${job.id}/report`);
    expect(page.status).to.equal(200);
    expect(page.headers.get('content-type')).to.equal('text/html; charset=utf-8');
    expect(page.headers.get('content-security-policy')).to.match(
      /^default-src 'none'; .*script-src 'sha256-[A-Za-z0-9+/=]+'.*; frame-ancestors 'none'$/,
    );
    expect(page.headers.get('x-frame-options')).to.equal('DENY');
    const html = await page.text();
    expect(html)
      .to.match(/^<!doctype html>/)
      .and.contain('<h1>acme/burst</h1>')
      .and.contain('likely_ai_generated');
    expect(html).to.contain('id="findings"');
    // The job's page shows its code at HEAD and how it lasted (docs/lines.md), from the job's own result.
    const lines = (job.result as { lines?: { counted: number } }).lines;
    expect(lines?.counted).to.be.greaterThan(0);
    expect(html)
      .to.contain('<h2>Code at HEAD</h2>')
      .and.contain('<h2>Does it last</h2>')
      .and.contain(`of the ${lines!.counted.toLocaleString('en')} lines at`);
    expect((await server.json(`/jobs/${'0'.repeat(8)}-0000-0000-0000-000000000000/report`)).status).to.equal(404);
    const stalled = await startStalledServer();
    try {
      const waiting = await server.json<JobBody>(
        '/api/analyze/repository',
        jsonPost({ url: `git://127.0.0.1:${stalled.port}/acme/slow.git` }),
      );
      const early = await server.json<{ error: string }>(`/jobs/${waiting.body.id}/report`);
      expect(early.status).to.equal(409);
      expect(early.body.error).to.equal('conflict');
      await server.json(`/jobs/${waiting.body.id}/cancel`, { method: 'POST' });
    } finally {
      await stalled.close();
    }
  });

  it('serves the second identical analysis from the cache, and clears it', async () => {
    const before = await server.json<{ hits: number; misses: number }>('/api/cache/stats');
    const again = await server.json<JobBody>(
      '/api/analyze/repository',
      jsonPost({ url: git.daemon.url('acme/burst.git') }),
    );
    await waitForJob(server, again.body.id);
    const after = await server.json<{ hits: number; misses: number; size: number }>('/api/cache/stats');
    expect(after.body.hits).to.equal(before.body.hits + 1);
    expect(after.body.size).to.be.at.least(1);
    expect((await server.json('/api/cache/clear', { method: 'POST' })).body).to.deep.equal({ cleared: true });
    expect((await server.json<{ size: number }>('/api/cache/stats')).body.size).to.equal(0);
  });

  it('records a failed job with its operational code: unreachable repository and unknown branch', async () => {
    const unreachable = await server.json<JobBody>(
      '/api/analyze/repository',
      jsonPost({ url: 'git://127.0.0.1:1/acme/none.git' }),
    );
    expect(await waitForJob<JobBody>(server, unreachable.body.id)).to.include({
      status: 'failed',
      error_code: 'ERR_GIT_CLONE_FAILED',
    });
    const branch = await server.json<JobBody>(
      '/api/analyze/repository',
      jsonPost({ url: git.daemon.url('acme/human.git'), branch: 'nope' }),
    );
    const failed = await waitForJob<JobBody>(server, branch.body.id);
    // The interface's code for a missing branch; the finer cause and the better message beside it.
    expect(failed).to.include({
      status: 'failed',
      error_code: 'ERR_NO_COMMITS_FOUND',
      error_reason: 'branch_not_found',
    });
    expect(failed.error).to.contain('nope');
    const noResult = await server.json<{ error: string; message: string }>(`/api/results/${failed.id}`);
    expect(noResult.status).to.equal(404);
    expect(noResult.body.message).to.contain('failed');
  });

  it('refuses bad input with the error body of the contract', async () => {
    const malformed = await server.json<{ error: string }>('/api/analyze/repository', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"url": ',
    });
    expect(malformed.status).to.equal(400);
    expect(malformed.body.error).to.equal('invalid_request');
    const missing = await server.json<{ error: string; details: { field: string } }>(
      '/api/analyze/repository',
      jsonPost({ branch: 'main' }),
    );
    expect(missing.status).to.equal(400);
    expect(missing.body.details.field).to.equal('url');
    // Said as a sentence, with an example made of what was sent.
    const guessed = await server.json<{ message: string; details: { field: string; reason: string } }>(
      '/api/analyze/repository',
      jsonPost({ repo: 'tj/co' }),
    );
    expect([guessed.status, guessed.body.message, guessed.body.details]).to.deep.equal([
      400,
      'missing url (a repository URL such as https://github.com/tj/co)',
      { field: 'url', reason: 'missing' },
    ]);
    const noPage = await server.json<{ message: string }>('/api/analyze/website', jsonPost({}));
    expect(noPage.body.message).to.equal('missing url (a page URL such as https://example.org/post)');
    const wrongType = await server.json<{ details: { field: string } }>(
      '/api/analyze/repository',
      jsonPost({ url: 42 }),
    );
    expect(wrongType.body.details.field).to.equal('url');
    const hostile = await server.json<{ error: string; details: { field: string } }>(
      '/api/analyze/repository',
      jsonPost({ url: 'ext::sh -c id' }),
    );
    expect(hostile.status).to.equal(400);
    const local = await server.json('/api/analyze/repository', jsonPost({ url: '/etc' }));
    expect(local.status).to.equal(400);
    const website = await server.json('/api/analyze/website', jsonPost({ url: 'ftp://example.test/' }));
    expect(website.status).to.equal(400);
    const text = await server.json<{ error: string }>('/api/analyze/repository', {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: 'url',
    });
    expect(text.status).to.equal(415);
    expect(text.body.error).to.equal('unsupported_media_type');
    const huge = await server.json<{ error: string }>(
      '/api/analyze/repository',
      jsonPost({ url: git.daemon.url('acme/human.git'), pad: 'x'.repeat(1_100_000) }),
    );
    expect(huge.status).to.equal(413);
    expect(huge.body.error).to.equal('payload_too_large');
    expect((huge.body as unknown as { message: string }).message, 'a 413 names the limit').to.contain('1048576');
    const unknownRoute = await server.json<{ error: string }>('/api/nothing');
    expect([unknownRoute.status, unknownRoute.body.error]).to.deep.equal([404, 'not_found']);
    const wrongMethod = await server.json<{ error: string }>('/api/analyze/repository');
    expect([wrongMethod.status, wrongMethod.body.error]).to.deep.equal([405, 'method_not_allowed']);
    expect(wrongMethod.headers.get('allow'), 'a 405 says what is allowed').to.equal('POST');
    const empty = await server.json<{ error: string; details: { field: string } }>('/api/analyze/repository', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
    });
    expect(
      [empty.status, empty.body.error, empty.body.details?.field],
      'an empty JSON body is a 400 naming the missing field',
    ).to.deep.equal([400, 'invalid_request', 'url']);
    for (const branch of ['--upload-pack=touch /tmp/x', '-x', 'a..b', 'main@{1}', 'a b']) {
      const refused = await server.json<{ error: string; details: { field: string } }>(
        '/api/analyze/repository',
        jsonPost({ url: git.daemon.url('acme/human.git'), branch }),
      );
      expect(
        [refused.status, refused.body.details?.field],
        `branch ${JSON.stringify(branch)} is refused at request time`,
      ).to.deep.equal([400, 'branch']);
      const streamed = await server.request(
        `/api/stream/repository?url=${encodeURIComponent(git.daemon.url('acme/human.git'))}&branch=${encodeURIComponent(branch)}`,
      );
      expect(streamed.status).to.equal(400);
      await streamed.text();
    }
    const unknownJob = await server.json<{ error: string }>('/jobs/00000000-0000-0000-0000-000000000000');
    expect([unknownJob.status, unknownJob.body.error]).to.deep.equal([404, 'not_found']);
  });

  it('validates GET /jobs parameters: caps limit at 100, refuses negative or non-integer values, knows the aliases', async () => {
    expect((await server.json<unknown[]>('/jobs?limit=1000')).status).to.equal(200);
    for (const query of ['limit=-1', 'limit=abc', 'offset=1.5', 'status=done']) {
      const { status, body } = await server.json<{ error: string; details: { field: string } }>(`/jobs?${query}`);
      expect(status, query).to.equal(400);
      expect(body.error).to.equal('invalid_request');
    }
    const pending = await server.json<JobBody[]>('/jobs?status=pending');
    expect(pending.status).to.equal(200);
    const page = await server.json<JobBody[]>('/jobs?limit=1&offset=1');
    expect(page.body).to.have.length(1);
  });

  it('streams a repository analysis over GET with Form A events, `type` mirrored, ending in complete', async () => {
    const events = await readStream(
      `${server.url}/api/stream/repository?url=${encodeURIComponent(git.daemon.url('acme/human.git'))}`,
    );
    const names = events.map((e) => e.event);
    expect(names[0]).to.equal('start');
    expect(names).to.include.members(['fetch', 'progress', 'complete']);
    for (const event of events) expect(event.type).to.equal(event.event);
    const complete = events.at(-1)!;
    expect(complete).to.include.keys('job_id', 'result', 'overall_score', 'suspicious_count');
    const progress = events.filter((e) => e.event === 'progress');
    expect(progress.some((e) => typeof e.strategy === 'string' && typeof e.detections === 'number')).to.equal(true);
    const job = await server.json<JobBody>(`/jobs/${String(complete.job_id)}`);
    expect(job.body.source).to.equal('stream');
  });

  it('streams over POST with the analyze body, and reports a failure as one error event', async () => {
    const events = await readStream(`${server.url}/api/stream/repository`, { url: 'git://127.0.0.1:1/acme/none.git' });
    expect(events.at(-1)).to.include({ event: 'error', type: 'error', error: 'ERR_GIT_CLONE_FAILED' });
  });

  it('announces each new job and its status changes on the server\u2019s job feed (GET /events)', async () => {
    const seen = await feedOfJob(
      `${server.url}/events`,
      async () =>
        (await server.json<JobBody>('/api/analyze/repository', jsonPost({ url: git.daemon.url('acme/human.git') })))
          .body.id,
    );
    expect(seen.at(-1)).to.include({ status: 'completed', repo: 'acme/human', source: 'api' });
    expect((seen.at(-1)!.result as { overall_score: number }).overall_score).to.be.a('number');
  });

  it('follows an existing job over GET /jobs/:id/events: live from its first event, a finished one from its record, 404 for none', async () => {
    const stalled = await startStalledServer();
    try {
      // A running job: followed from its first event; it ends (cancelled here) with an error event.
      const running = await server.json<JobBody>(
        '/api/analyze/repository',
        jsonPost({ url: `git://127.0.0.1:${stalled.port}/acme/follow.git` }),
      );
      await eventually(() => stalled.connections() > 0 || undefined, 'the stalled server\u2019s first connection');
      let started = false;
      const following = readStream(`${server.url}/jobs/${running.body.id}/events`, undefined, () => (started = true));
      await eventually(() => started || undefined, 'the first event of the followed job');
      await server.json(`/jobs/${running.body.id}/cancel`, { method: 'POST' });
      const events = await following;
      expect(events[0]).to.include({ event: 'start' });
      expect(events.at(-1)).to.include({ event: 'error', error: 'ERR_CANCELLED', job_id: running.body.id });
    } finally {
      await stalled.close();
    }
    // A finished job, followed later: its complete event, with the result.
    const done = await server.json<JobBody>(
      '/api/analyze/repository',
      jsonPost({ url: git.daemon.url('acme/burst.git') }),
    );
    const finished = await waitForJob<JobBody>(server, done.body.id);
    const replay = await readStream(`${server.url}/jobs/${done.body.id}/events`);
    expect(replay.at(-1)).to.include({ event: 'complete', job_id: done.body.id });
    expect((replay.at(-1)!.result as { overall_score: number }).overall_score).to.equal(finished.result!.overall_score);
    const unknown = await server.json<{ error: string }>('/jobs/00000000-0000-0000-0000-000000000000/events');
    expect([unknown.status, unknown.body.error]).to.deep.equal([404, 'not_found']);
  });

  it('cancels a job waiting on a stalled server, and refuses to cancel it twice', async () => {
    const stalled = await startStalledServer();
    try {
      const accepted = await server.json<JobBody>(
        '/api/analyze/repository',
        jsonPost({ url: `git://127.0.0.1:${stalled.port}/acme/stall.git` }),
      );
      await eventually(
        async () =>
          ((await server.json<JobBody>(`/jobs/${accepted.body.id}`)).body.status === 'running' &&
            stalled.connections() > 0) ||
          undefined,
        'the job running against the stalled server',
      );
      const cancelled = await server.json<JobBody>(`/jobs/${accepted.body.id}/cancel`, { method: 'POST' });
      expect(cancelled.status).to.equal(200);
      expect(cancelled.body).to.include({ status: 'cancelled', error_code: 'ERR_CANCELLED' });
      const again = await server.json<{ error: string }>(`/jobs/${accepted.body.id}/cancel`, { method: 'POST' });
      expect([again.status, again.body.error]).to.deep.equal([409, 'conflict']);
      expect(
        (await server.json('/jobs/00000000-0000-0000-0000-000000000000/cancel', { method: 'POST' })).status,
      ).to.equal(404);
    } finally {
      await stalled.close();
    }
  });

  it('cancels the analysis when a stream client disconnects', async () => {
    const stalled = await startStalledServer();
    try {
      const source = new EventSource(
        `${server.url}/api/stream/repository?url=${encodeURIComponent(`git://127.0.0.1:${stalled.port}/acme/stall.git`)}`,
      );
      const jobId = await new Promise<string>((resolve) => {
        source.onmessage = (message) => {
          const event = JSON.parse(message.data) as { event: string };
          if (event.event === 'fetch') {
            source.close();
            resolve('');
          }
        };
      });
      void jobId;
      await eventually(async () => {
        const jobs = await server.json<JobBody[]>('/jobs?limit=5');
        const job = jobs.body.find((j) => j.source === 'stream' && j.repo === 'acme/stall');
        return job?.status === 'cancelled' || undefined;
      }, 'the stream\u2019s job cancelled');
    } finally {
      await stalled.close();
    }
  });

  it('lists the plugins\u2019 strategies and exposes metrics in both forms', async () => {
    const plugins =
      await server.json<{ name: string; category: string; description: string; package: string }[]>('/api/plugins');
    expect(plugins.body.map((p) => p.name)).to.include.members(['velocity', 'timing', 'size']);
    expect(plugins.body[0]).to.include.all.keys('name', 'category', 'description', 'package', 'version');
    const text = await (await server.request('/metrics')).text();
    for (const line of [
      '# TYPE cadence_jobs_total counter',
      '# TYPE cadence_jobs_active gauge',
      '# TYPE cadence_queue_depth gauge',
      '# TYPE cadence_jobs_duration_seconds histogram',
      '# TYPE cadence_analysis_errors_total counter',
      '# TYPE cadence_cache_hits_total counter',
      '# TYPE cadence_cache_misses_total counter',
      'cadence_jobs_duration_seconds_bucket{le="0.1"}',
      'cadence_jobs_duration_seconds_bucket{le="5"}',
      'cadence_jobs_duration_seconds_bucket{le="+Inf"}',
      'cadence_jobs_total{status="completed"}',
      'process_cpu_user_seconds_total',
    ])
      expect(text).to.contain(line);
    const api = await server.json<{ jobs_total: Record<string, number> }>('/api/metrics');
    expect(api.body).to.include.all.keys(
      'jobs_total',
      'jobs_active',
      'queue_depth',
      'cache_hits',
      'cache_misses',
      'cache_size',
      'uptime_seconds',
    );
    expect(api.body.jobs_total.completed).to.be.at.least(1);
    expect(api.body.jobs_total.failed).to.be.at.least(1);
  });
});
