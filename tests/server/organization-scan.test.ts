import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import path from 'node:path';
import { stringify } from 'yaml';
import {
  eventually,
  burstHistory,
  createRepository,
  exportRepository,
  humanHistory,
  makeTempDir,
  runCadence,
  startCadenceServer,
  startCadenceWorker,
  startConnectionRecorder,
  startRedisServer,
  startFakeGithub,
  startFakeGitlab,
  startGitHttpServer,
  waitForJob,
  type ConnectionRecorder,
  type FakeForge,
  type GitHttpServer,
  type ServerProcess,
  type TempDir,
} from '@cadence-detect/test-support';

const GITHUB_TOKEN = 'ghp_orgScanTokenThatMustNotLeak0123456789';
const GITLAB_TOKEN = 'glpat-orgScanTokenThatMustNotLeak4321';
const API_TOKEN = 'api-token-for-organization-scans-0123456789';
const AUTH = { authorization: `Bearer ${API_TOKEN}` };

interface Child {
  repository: string;
  job_id: string | null;
  status: string;
  error_code: string | null;
}
interface OrgJob {
  id: string;
  status: string;
  kind: string;
  url: string;
  error_code: string | null;
  progress: { total: number | null; done: number; failed: number };
  children: Child[];
  result?: Record<string, unknown> & {
    repositories: { repository: string; error: { code: string } | null }[];
    counts: Record<string, number>;
  };
}

describe('server: organization scans (POST /api/analyze/organization)', function () {
  this.timeout(180_000);
  let work: TempDir;
  let git: GitHttpServer;
  let github: FakeForge;
  let gitlab: FakeForge;
  let stall: ConnectionRecorder;
  let server: ServerProcess;
  let config: Record<string, unknown>;

  before(async () => {
    work = await makeTempDir('cadence-org-scan-');
    const served = path.join(work.path, 'served');
    await mkdir(served);
    for (const [name, history] of [
      ['acme/api', humanHistory(8)],
      ['acme/web', burstHistory(8)],
      ['acme/old', humanHistory(4)],
    ] as const) {
      const dir = path.join(work.path, 'src', name);
      await mkdir(dir, { recursive: true });
      await createRepository(dir, history);
      await exportRepository(served, `${name}.git`, dir);
    }
    git = await startGitHttpServer(served);
    github = await startFakeGithub();
    gitlab = await startFakeGitlab();
    // A git server that accepts and never answers: a repository job that runs until it is stopped.
    stall = await startConnectionRecorder('127.0.0.1', 'stall');
    config = {
      security: { allowed_networks: ['127.0.0.0/8'] },
      // The forges serve git on another port than their API: named as their git hosts, where the tokens may go.
      forges: {
        github: { api_url: github.apiUrl, git_hosts: [new URL(git.repoUrl('x')).host] },
        gitlab: { api_url: gitlab.apiUrl, git_hosts: [new URL(git.repoUrl('x')).host] },
      },
      scans: { allowed_owners: ['github:acme', 'gitlab:acme'], max_queued_children: 1 },
      cache: { repositories_dir: path.join(work.path, 'cache') },
    };
    server = await startCadenceServer({
      cwd: work.path,
      config,
      env: { CADENCE_GITHUB_TOKEN: GITHUB_TOKEN, CADENCE_GITLAB_TOKEN: GITLAB_TOKEN, CADENCE_API_TOKEN: API_TOKEN },
    });
  });
  after(async () => {
    await server?.stop();
    await Promise.all([git?.close(), github?.close(), gitlab?.close(), stall?.close()]);
    await work?.remove();
  });

  const repo = (name: string, extra: Record<string, unknown> = {}) => ({
    full_name: name,
    clone_url: git.repoUrl(`${name}.git`),
    html_url: `https://github.example/${name}`,
    archived: false,
    fork: false,
    private: true,
    ...extra,
  });
  const listing = () =>
    github.script('GET', /^\/orgs\/acme\/repos/, [
      {
        status: 200,
        headers: { link: `<${github.apiUrl}/orgs/acme/repos?type=all&per_page=100&page=2>; rel="next"` },
        body: [repo('acme/api'), repo('acme/old', { archived: true })],
      },
      // acme/gone is listed but has no repository behind it: its job fails and the scan goes on.
      { status: 200, body: [repo('acme/forked', { fork: true }), repo('acme/web'), repo('acme/gone')] },
    ]);
  const post = (body: unknown, headers: Record<string, string> = AUTH, target: ServerProcess = server) =>
    target.json<Record<string, unknown>>('/api/analyze/organization', {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });

  /** The id of the organization job's first repository job, once its scan has queued it. */
  const firstRepositoryJob = (target: ServerProcess, id: string): Promise<string> =>
    eventually(
      async () => (await target.json<OrgJob>(`/jobs/${id}`, { headers: AUTH })).body.children[0]?.job_id ?? undefined,
      `organization job ${id} queueing a repository job`,
      { timeoutMs: 10_000 },
    );

  it('scans an organization through repository jobs and gives the result the CLI gives; the token is in no record or log line', async () => {
    listing();
    const started = await post({ forge: 'github', owner: 'acme' });
    expect(started.status, JSON.stringify(started.body)).to.equal(202);
    expect(started.body).to.include({ status: 'running', kind: 'organization' });
    const job = await waitForJob<OrgJob>(server, String(started.body.id), 120_000, AUTH);
    expect(job.status, JSON.stringify(job)).to.equal('completed');
    expect(job.progress).to.deep.equal({ total: 3, done: 3, failed: 1 });
    expect(job.children.map((c) => [c.repository, c.status])).to.deep.equal([
      ['acme/api', 'completed'],
      ['acme/web', 'completed'],
      ['acme/gone', 'failed'],
    ]);
    expect(job.children[2]!.error_code).to.equal('ERR_GIT_CLONE_FAILED');
    // Counted as every job is: two repository jobs and the organization job completed, one failed.
    const counted = await server.json<{ jobs_total: Record<string, number> }>('/api/metrics', { headers: AUTH });
    expect(counted.body.jobs_total).to.include({ completed: 3, failed: 1 });
    // Each repository is an ordinary job that names its organization job.
    const child = await server.json<{ parent_id: string; kind: string; status: string }>(
      `/jobs/${job.children[0]!.job_id}`,
      { headers: AUTH },
    );
    expect(child.body).to.include({ parent_id: job.id, kind: 'repository', status: 'completed' });
    // The git server got the forge token as a header; nothing the server recorded or logged holds it.
    expect(git.authorizations()).to.include(
      `Basic ${Buffer.from(`x-access-token:${GITHUB_TOKEN}`).toString('base64')}`,
    );
    const records = [JSON.stringify(job), JSON.stringify(child.body), JSON.stringify(server.logs), server.stderr()];
    for (const text of records) {
      expect(text).to.not.contain(GITHUB_TOKEN);
      expect(text).to.not.contain(Buffer.from(`x-access-token:${GITHUB_TOKEN}`).toString('base64'));
    }

    // The CLI, given the same configuration and the same listing, gives the same organization result.
    listing();
    const file = path.join(work.path, 'cli.yaml');
    await writeFile(
      file,
      stringify({
        ...config,
        forges: {
          github: { api_url: github.apiUrl, token: GITHUB_TOKEN, git_hosts: [new URL(git.repoUrl('x')).host] },
          gitlab: { api_url: gitlab.apiUrl },
        },
      }),
    );
    const cli = await runCadence(['scan', 'github:acme', '--config', file, '-o', 'cli.json'], { cwd: work.path });
    expect(cli.code, cli.stderr).to.equal(0);
    const fromCli = JSON.parse(await readFile(path.join(work.path, 'cli.json'), 'utf8')) as Record<string, unknown>;
    const { generated_at: a, ...serverOrg } = job.result!;
    const { generated_at: b, ...cliOrg } = fromCli;
    expect(a).to.be.a('string');
    expect(b).to.be.a('string');
    expect(serverOrg).to.deep.equal(cliOrg);
    expect(job.result!.counts).to.deep.equal({ listed: 3, analyzed: 2, failed: 1 });
  });

  it('scans a GitLab group with its subgroups across pages (X-Next-Page) as the CLI does', async () => {
    const project = (name: string, extra: Record<string, unknown> = {}) => ({
      id: name.length,
      path_with_namespace: name,
      http_url_to_repo: git.repoUrl(`${name}.git`),
      archived: false,
      visibility: 'private',
      ...extra,
    });
    const groupListing = () =>
      gitlab.script('GET', /^\/groups\/acme\/projects/, [
        {
          status: 200,
          headers: {
            'x-next-page': '2',
            'x-page': '1',
            'x-total-pages': '2',
            'x-per-page': '100',
            link: `<${gitlab.apiUrl}/groups/acme/projects?include_subgroups=true&per_page=100&page=2>; rel="next"`,
          },
          body: [project('acme/api'), project('acme/forked', { forked_from_project: { id: 1 } })],
        },
        {
          status: 200,
          headers: { 'x-next-page': '', 'x-page': '2', 'x-total-pages': '2', 'x-per-page': '100' },
          body: [project('acme/web')],
        },
      ]);
    groupListing();
    const started = await post({ forge: 'gitlab', owner: 'acme' });
    expect(started.status, JSON.stringify(started.body)).to.equal(202);
    const job = await waitForJob<OrgJob>(server, String(started.body.id), 120_000, AUTH);
    expect(job.status, JSON.stringify(job)).to.equal('completed');
    expect(job.children.map((c) => c.repository)).to.deep.equal(['acme/api', 'acme/web']);
    expect(git.authorizations()).to.include(`Basic ${Buffer.from(`oauth2:${GITLAB_TOKEN}`).toString('base64')}`);
    expect(JSON.stringify(job) + JSON.stringify(server.logs)).to.not.contain(GITLAB_TOKEN);
    groupListing();
    const file = path.join(work.path, 'cli-gitlab.yaml');
    await writeFile(
      file,
      stringify({
        ...config,
        forges: {
          github: { api_url: github.apiUrl },
          gitlab: { api_url: gitlab.apiUrl, token: GITLAB_TOKEN, git_hosts: [new URL(git.repoUrl('x')).host] },
        },
      }),
    );
    const cli = await runCadence(['scan', 'gitlab:acme', '--config', file, '-o', 'cli-gitlab.json'], {
      cwd: work.path,
    });
    expect(cli.code, cli.stderr).to.equal(0);
    const { generated_at: a, ...fromCli } = JSON.parse(
      await readFile(path.join(work.path, 'cli-gitlab.json'), 'utf8'),
    ) as Record<string, unknown>;
    const { generated_at: b, ...fromServer } = job.result!;
    expect(a).to.be.a('string');
    expect(b).to.be.a('string');
    expect(fromServer).to.deep.equal(fromCli);
  });

  it('reports a listed clone URL the URL rules refuse and never queues it; the others complete', async () => {
    github.script('GET', /^\/orgs\/acme\/repos/, [
      {
        status: 200,
        body: [
          repo('acme/api'),
          { ...repo('acme/evil'), clone_url: 'ext::sh -c touch% /tmp/cadence-pwned' },
          { ...repo('acme/option'), clone_url: '--upload-pack=touch /tmp/cadence-pwned' },
        ],
      },
    ]);
    const started = await post({ forge: 'github', owner: 'acme' });
    const job = await waitForJob<OrgJob>(server, String(started.body.id), 120_000, AUTH);
    expect(job.status, JSON.stringify(job)).to.equal('completed');
    expect(job.children.map((c) => [c.repository, c.job_id === null, c.error_code])).to.deep.equal([
      ['acme/api', false, null],
      ['acme/evil', true, 'ERR_INVALID_SOURCE'],
      ['acme/option', true, 'ERR_INVALID_SOURCE'],
    ]);
    expect(job.progress).to.deep.equal({ total: 3, done: 3, failed: 2 });
  });

  it('streams each repository as it ends, then the organization result, and serves the organization page', async () => {
    listing();
    const started = await post({ forge: 'github', owner: 'acme', match: 'acme/[aw]*' });
    const id = String(started.body.id);
    const job = await waitForJob<OrgJob>(server, id, 120_000, AUTH);
    expect(job.status).to.equal('completed');
    expect(job.children.map((c) => c.repository)).to.deep.equal(['acme/api', 'acme/web']);
    // A finished job's events end with its `complete` event carrying the organization result.
    const events = await fetch(`${server.url}/jobs/${id}/events`, { headers: AUTH });
    const text = await events.text();
    const last = JSON.parse(
      text
        .trim()
        .split('\n')
        .filter((l) => l.startsWith('data:'))
        .at(-1)!
        .slice(5),
    ) as { event: string; result: { organization: string } };
    expect(last.event).to.equal('complete');
    expect(last.result.organization).to.equal('github:acme');
    const page = await fetch(`${server.url}/jobs/${id}/report`, { headers: { ...AUTH, accept: 'text/html' } });
    expect(page.status).to.equal(200);
    const html = await page.text();
    expect(html).to.contain('github:acme');
    // Each repository links to its own job's report.
    expect(html).to.contain(`href="../${job.children[0]!.job_id}/report"`);
    const results = await server.json<{ organization: string }>(`/api/results/${id}`, { headers: AUTH });
    expect(results.body.organization).to.equal('github:acme');
  });

  it('refuses what it must before any job: a missing token, an owner scans.allowed_owners does not list, an unknown forge, a malformed body', async () => {
    expect((await post({ forge: 'github', owner: 'acme' }, {})).status).to.equal(401);
    const other = await post({ forge: 'github', owner: 'evil-corp' });
    expect(other.status).to.equal(403);
    expect(other.body).to.include({ error: 'forbidden' });
    const unknown = await post({ forge: 'nosuchforge', owner: 'acme' });
    expect(unknown.status).to.equal(400);
    expect(JSON.stringify(unknown.body)).to.contain('no loaded plugin brings the forge');
    for (const body of [
      {},
      { forge: 'github' },
      { owner: 'acme' },
      { forge: 'github', owner: 'acme', repositories: ['x'] },
      { repositories: [] },
      { forge: 'github', owner: 'acme', since: 'yesterday' },
      { forge: 'github', owner: 'acme', extra: 1 },
      { forge: 'github', owner: 'acme/../evil' },
      { forge: 'github', owner: '-x' },
      { forge: 'github', owner: 'ac me' },
      { forge: 'github:acme', owner: 'x' },
      { forge: 'gitlab:platform/..', owner: 'x' },
      [],
    ]) {
      const answer = await post(body);
      expect(answer.status, JSON.stringify(body)).to.equal(400);
      expect(answer.body).to.include({ error: 'invalid_request' });
    }
    // A listed URL the URL rules refuse is named, and nothing starts.
    const hostile = await post({ repositories: [git.repoUrl('acme/api.git'), '--upload-pack=touch /tmp/x'] });
    expect(hostile.status).to.equal(400);
    expect((hostile.body.details as { field: string }).field).to.equal('repositories.1');
  });

  it('scans a list of repositories; cancelling the organization job cancels the repository job running and queues no more', async () => {
    const stalled = `http://127.0.0.1:${stall.port}/acme/slow.git`;
    const started = await post({ repositories: [stalled, git.repoUrl('acme/api.git'), git.repoUrl('acme/web.git')] });
    expect(started.status, JSON.stringify(started.body)).to.equal(202);
    const id = String(started.body.id);
    await firstRepositoryJob(server, id);
    const cancelled = await server.json<OrgJob>(`/jobs/${id}/cancel`, { method: 'POST', headers: AUTH });
    expect(cancelled.status).to.equal(200);
    const ended = await waitForJob<OrgJob>(server, id, 20_000, AUTH);
    expect(ended.status).to.equal('cancelled');
    expect(ended.error_code).to.equal('ERR_CANCELLED');
    const first = await waitForJob<{ status: string }>(server, ended.children[0]!.job_id!, 20_000, AUTH);
    expect(first.status).to.equal('cancelled');
    // max_queued_children 1: the other two never became jobs.
    expect(ended.children.slice(1).map((c) => c.job_id)).to.deep.equal([null, null]);
  });

  it('ends an organization job that passes limits.scan_timeout_seconds as `timeout`, cancelling its repository jobs', async () => {
    const timed = await startCadenceServer({
      cwd: work.path,
      config: { ...config, limits: { scan_timeout_seconds: 2 } },
      env: { CADENCE_GITHUB_TOKEN: GITHUB_TOKEN, CADENCE_API_TOKEN: API_TOKEN },
    });
    try {
      const started = await post({ repositories: [`http://127.0.0.1:${stall.port}/acme/slow.git`] }, AUTH, timed);
      const ended = await waitForJob<OrgJob>(timed, String(started.body.id), 20_000, AUTH);
      expect(ended.status).to.equal('timeout');
      expect(ended.error_code).to.equal('ERR_JOB_TIMEOUT');
      const child = await waitForJob<{ status: string; error: string }>(
        timed,
        ended.children[0]!.job_id!,
        20_000,
        AUTH,
      );
      // Its repository jobs end `cancelled`, saying why, and the organization job's record says so too.
      expect(child.status).to.equal('cancelled');
      expect(child.error).to.contain('ERR_JOB_TIMEOUT');
      expect(ended.children[0]!.status).to.equal('cancelled');
      expect(ended.progress).to.deep.equal({ total: 1, done: 1, failed: 1 });
    } finally {
      await timed.stop();
    }
  });

  it('on Redis, a worker process runs the repository jobs and clones with its own forge plugin\u2019s token', async () => {
    const redis = await startRedisServer();
    const dir = await makeTempDir('cadence-org-scan-redis-');
    const env = {
      CADENCE_GITHUB_TOKEN: GITHUB_TOKEN,
      CADENCE_API_TOKEN: API_TOKEN,
      CADENCE_QUEUE_BACKEND: 'redis',
      CADENCE_REDIS_URL: redis.url,
      CADENCE_REDIS_KEY_PREFIX: 'orgscan',
    };
    const intake = await startCadenceServer({
      cwd: dir.path,
      config: { ...config, cache: { repositories_dir: path.join(dir.path, 'cache') } },
      env,
      args: ['--workers', '0'],
    });
    const worker = await startCadenceWorker({ cwd: dir.path, env });
    try {
      listing();
      const seen = git.authorizations().length;
      const started = await post({ forge: 'github', owner: 'acme' }, AUTH, intake);
      const job = await waitForJob<OrgJob>(intake, String(started.body.id), 120_000, AUTH);
      expect(job.status, JSON.stringify(job)).to.equal('completed');
      expect(job.progress).to.deep.equal({ total: 3, done: 3, failed: 1 });
      // The intake server ran no analysis: the worker cloned, with the header its own plugin gave.
      expect(worker.logs.filter((l) => l.message === 'job completed')).to.have.length(2);
      expect(git.authorizations().slice(seen)).to.include(
        `Basic ${Buffer.from(`x-access-token:${GITHUB_TOKEN}`).toString('base64')}`,
      );
      expect(JSON.stringify(worker.logs) + JSON.stringify(intake.logs) + JSON.stringify(job)).to.not.contain(
        GITHUB_TOKEN,
      );
    } finally {
      await Promise.all([intake.stop(), worker.stop()]);
      await redis.close();
      await dir.remove();
    }
  });

  it('a server that stops records its running scan `cancelled` (ERR_SHUTTING_DOWN) and its repository job with it, on the shared store', async () => {
    const redis = await startRedisServer();
    const dir = await makeTempDir('cadence-org-scan-stop-');
    const env = {
      CADENCE_API_TOKEN: API_TOKEN,
      CADENCE_QUEUE_BACKEND: 'redis',
      CADENCE_REDIS_URL: redis.url,
      CADENCE_REDIS_KEY_PREFIX: 'orgstop',
    };
    const first = await startCadenceServer({
      cwd: dir.path,
      config: { ...config, limits: { shutdown_grace_seconds: 1 } },
      env,
    });
    let other: ServerProcess | null = null;
    try {
      const started = await post({ repositories: [`http://127.0.0.1:${stall.port}/acme/slow.git`] }, AUTH, first);
      const id = String(started.body.id);
      await firstRepositoryJob(first, id);
      expect(await first.stop('SIGTERM')).to.equal(0);
      other = await startCadenceServer({ cwd: dir.path, env });
      const ended = (await other.json<OrgJob>(`/jobs/${id}`, { headers: AUTH })).body;
      expect(ended.status).to.equal('cancelled');
      expect(ended.error_code).to.equal('ERR_SHUTTING_DOWN');
      const child = (await other.json<{ status: string }>(`/jobs/${ended.children[0]!.job_id}`, { headers: AUTH }))
        .body;
      expect(child.status).to.equal('cancelled');
    } finally {
      await other?.stop();
      await redis.close();
      await dir.remove();
    }
  });

  it('a cancel ends the scan of a killed server (silent 45 s) and its repository jobs still waiting', async () => {
    const redis = await startRedisServer();
    const dir = await makeTempDir('cadence-org-scan-orphan-');
    const prefix = 'orgorphan';
    const env = {
      CADENCE_API_TOKEN: API_TOKEN,
      CADENCE_QUEUE_BACKEND: 'redis',
      CADENCE_REDIS_URL: redis.url,
      CADENCE_REDIS_KEY_PREFIX: prefix,
    };
    // No worker anywhere: the repository job stays queued while its scan's server is gone.
    const first = await startCadenceServer({ cwd: dir.path, config, env, args: ['--workers', '0'] });
    let other: ServerProcess | null = null;
    try {
      const started = await post({ repositories: [git.repoUrl('acme/api.git')] }, AUTH, first);
      const id = String(started.body.id);
      const childId = await firstRepositoryJob(first, id);
      await first.stop('SIGKILL');
      // The killed server's last sign of life a minute ago, as its record would say after waiting that long.
      const key = `${prefix}:job:${id}`;
      const cli = (...args: string[]) => promisify(execFile)('redis-cli', ['-p', String(redis.port), ...args]);
      const record = JSON.parse((await cli('HGET', key, 'data')).stdout) as Record<string, unknown>;
      await cli(
        'HSET',
        key,
        'data',
        JSON.stringify({ ...record, heartbeat_at: new Date(Date.now() - 60_000).toISOString() }),
      );
      other = await startCadenceServer({ cwd: dir.path, env, args: ['--workers', '0'] });
      const cancelled = await other.json<OrgJob>(`/jobs/${id}/cancel`, { method: 'POST', headers: AUTH });
      expect(cancelled.status, JSON.stringify(cancelled.body)).to.equal(200);
      expect(cancelled.body.status).to.equal('cancelled');
      expect(cancelled.body.children[0]).to.include({ job_id: childId, status: 'cancelled' });
      const child = (await other.json<{ status: string }>(`/jobs/${childId}`, { headers: AUTH })).body;
      expect(child.status).to.equal('cancelled');
    } finally {
      await other?.stop();
      await redis.close();
      await dir.remove();
    }
  });

  it('waits out a Redis outage in the middle of a scan, then completes it', async () => {
    const redis = await startRedisServer({ persistent: true });
    const dir = await makeTempDir('cadence-org-scan-outage-');
    const env = {
      CADENCE_API_TOKEN: API_TOKEN,
      CADENCE_QUEUE_BACKEND: 'redis',
      CADENCE_REDIS_URL: redis.url,
      CADENCE_REDIS_KEY_PREFIX: 'orgoutage',
    };
    const server = await startCadenceServer({
      cwd: dir.path,
      config: { ...config, cache: { repositories_dir: path.join(dir.path, 'cache') } },
      env,
    });
    try {
      // The stalled repository holds the scan (one repository job at a time) while Redis is away.
      const started = await post(
        { repositories: [`http://127.0.0.1:${stall.port}/acme/slow.git`, git.repoUrl('acme/api.git')] },
        AUTH,
        server,
      );
      const id = String(started.body.id);
      const childId = await firstRepositoryJob(server, id);
      await redis.stop();
      // Until the scan's heartbeat (every 10 s) has failed against the missing store.
      await eventually(
        () => server.logs.some((l) => l.message === 'organization scan heartbeat missed' && l.job_id === id),
        'a heartbeat missed during the outage',
        { timeoutMs: 15_000 },
      );
      await redis.restart();
      await eventually(async () => (await server.request('/health')).status === 200, 'the server healthy again');
      const cancelled = await server.json<{ status: string }>(`/jobs/${childId}/cancel`, {
        method: 'POST',
        headers: AUTH,
      });
      expect(cancelled.body.status, JSON.stringify(cancelled.body)).to.equal('cancelled');
      const ended = await waitForJob<OrgJob>(server, id, 60_000, AUTH);
      expect(ended.status, JSON.stringify(ended)).to.equal('completed');
      expect(ended.progress).to.deep.equal({ total: 2, done: 2, failed: 1 });
    } finally {
      await server.stop();
      await redis.close();
      await dir.remove();
    }
  });

  it('has no organization route on a server without an API token', async () => {
    const open = await startCadenceServer({ cwd: work.path, config, env: { CADENCE_GITHUB_TOKEN: GITHUB_TOKEN } });
    try {
      const answer = await post({ forge: 'github', owner: 'acme' }, {}, open);
      expect(answer.status).to.equal(404);
    } finally {
      await open.stop();
    }
  });
});
