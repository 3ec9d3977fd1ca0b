import { expect } from 'chai';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import {
  createRepository,
  eventually,
  exportRepository,
  humanHistory,
  makeTempDir,
  startCadenceServer,
  startFakeGithub,
  startGitHttpServer,
  startRedisServer,
  waitForJob,
  type FakeForge,
  type GitHttpServer,
  type RedisServer,
  type ServerProcess,
  type TempDir,
} from '@cadence-detect/test-support';

const API_TOKEN = 'schedule-api-token-0123456789';
const AUTH = { authorization: `Bearer ${API_TOKEN}` };

interface ListedJob {
  id: string;
  kind: string;
  source: string;
  repo: string;
  status: string;
}

/** The organization jobs a server's store holds. */
async function organizationJobs(server: ServerProcess): Promise<ListedJob[]> {
  const { body } = await server.json<ListedJob[]>('/jobs?limit=100', { headers: AUTH });
  return body.filter((job) => job.kind === 'organization');
}

/** The server's organization jobs once the schedule has fired (at least one is there). */
function scheduleFired(server: ServerProcess): Promise<ListedJob[]> {
  return eventually(
    async () => {
      const list = await organizationJobs(server);
      return list.length > 0 && list;
    },
    'the schedule firing',
    { timeoutMs: 20_000 },
  );
}

describe('server: scheduled organization scans (scans.schedule)', function () {
  this.timeout(120_000);
  let work: TempDir;
  let git: GitHttpServer;
  let github: FakeForge;
  let redis: RedisServer;
  const started: ServerProcess[] = [];

  before(async () => {
    work = await makeTempDir('cadence-scan-schedule-');
    const served = path.join(work.path, 'served');
    const dir = path.join(work.path, 'src', 'acme', 'api');
    await mkdir(dir, { recursive: true });
    await createRepository(dir, humanHistory(5));
    await exportRepository(served, 'acme/api.git', dir);
    git = await startGitHttpServer(served);
    github = await startFakeGithub();
    redis = await startRedisServer();
  });
  afterEach(async () => {
    await Promise.all(started.splice(0).map((server) => server.stop()));
  });
  after(async () => {
    await Promise.all([git?.close(), github?.close(), redis?.close()]);
    await work?.remove();
  });

  const config = (extra: Record<string, unknown> = {}) => ({
    security: { allowed_networks: ['127.0.0.0/8'] },
    forges: { github: { api_url: github.apiUrl } },
    scans: { schedule: [{ target: 'github:acme', every: '1h' }] },
    ...extra,
  });
  const listAcme = (times: number) =>
    github.script(
      'GET',
      /^\/orgs\/acme\/repos/,
      Array.from({ length: times }, () => ({
        status: 200,
        body: [
          {
            full_name: 'acme/api',
            clone_url: git.repoUrl('acme/api.git'),
            archived: false,
            fork: false,
            private: false,
          },
        ],
      })),
    );

  it('scans a scheduled organization when the server starts, as an organization job from `schedule`', async () => {
    listAcme(1);
    const dir = await makeTempDir('cadence-schedule-memory-');
    try {
      const server = await startCadenceServer({
        cwd: dir.path,
        config: config({ queue: { backend: 'memory' } }),
        env: {
          CADENCE_QUEUE_BACKEND: 'memory',
          CADENCE_GITHUB_TOKEN: 'ghp_scheduleToken0123456789',
          CADENCE_API_TOKEN: API_TOKEN,
        },
      });
      started.push(server);
      const jobs = await scheduleFired(server);
      expect(jobs).to.have.length(1);
      expect(jobs[0]).to.include({ source: 'schedule', repo: 'github:acme' });
      const job = await waitForJob<{ status: string; result: { counts: Record<string, number> } }>(
        server,
        jobs[0]!.id,
        60_000,
        AUTH,
      );
      expect(job.status, JSON.stringify(job)).to.equal('completed');
      expect(job.result.counts).to.deep.equal({ listed: 1, analyzed: 1, failed: 0 });
    } finally {
      await dir.remove();
    }
  });

  it('ignores the schedule on a server without an API token, saying so (anyone could read what it lists)', async () => {
    const dir = await makeTempDir('cadence-schedule-open-');
    try {
      const server = await startCadenceServer({
        cwd: dir.path,
        config: config({ queue: { backend: 'memory' } }),
        env: { CADENCE_QUEUE_BACKEND: 'memory', CADENCE_GITHUB_TOKEN: 'ghp_scheduleToken0123456789' },
      });
      started.push(server);
      // The refusal is logged instead of setting any timer up: nothing can fire after it.
      await eventually(
        () => server.logs.some((l) => String(l.message).includes('scheduled organization scans need api.token')),
        'the refusal in the log',
      );
      expect(server.logs.some((l) => l.message === 'scans.schedule set up')).to.equal(false);
      expect(await organizationJobs(server)).to.deep.equal([]);
    } finally {
      await dir.remove();
    }
  });

  it('fires once across servers sharing Redis, not once per server', async () => {
    listAcme(3);
    const dir = await makeTempDir('cadence-schedule-redis-');
    try {
      const settings = config({ queue: { backend: 'redis' }, redis: { url: redis.url, key_prefix: 'schedule1' } });
      const env = {
        CADENCE_API_TOKEN: API_TOKEN,
        CADENCE_GITHUB_TOKEN: 'ghp_scheduleToken0123456789',
        CADENCE_QUEUE_BACKEND: 'redis',
        CADENCE_REDIS_URL: redis.url,
        CADENCE_REDIS_KEY_PREFIX: 'schedule1',
      };
      const a = await startCadenceServer({ cwd: dir.path, config: settings, env });
      started.push(a);
      const b = await startCadenceServer({ cwd: dir.path, env });
      started.push(b);
      const setUp = (server: ServerProcess) => server.logs.some((l) => l.message === 'scans.schedule set up');
      await eventually(() => setUp(a) && setUp(b), 'both servers setting the schedule up', { timeoutMs: 20_000 });
      const first = await scheduleFired(a);
      expect(first, 'the schedule fired').to.have.length(1);
      // Both servers upserted the one scheduler before its scan ended: a firing per server would be there by now.
      await waitForJob(a, first[0]!.id, 30_000, AUTH);
      const seen = await organizationJobs(b);
      expect(seen.map((job) => job.id)).to.deep.equal(first.map((job) => job.id));
      expect(seen[0]).to.include({ source: 'schedule', repo: 'github:acme' });
    } finally {
      await dir.remove();
    }
  });
});
