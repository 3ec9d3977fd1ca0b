import { expect } from 'chai';
import { sign } from '@octokit/webhooks-methods';
import {
  eventually,
  freePort,
  makeTempDir,
  startCadenceServer,
  startConnectionRecorder,
  startFakeGithub,
  waitForJob,
  waitForReports,
  type ConnectionRecorder,
  type FakeForge,
  type ServerProcess,
  type TempDir,
} from '@cadence-detect/test-support';
import { githubPushPayload, SECRET, serveRepositories, type GitFixtures } from './fixtures.js';

interface JobBody {
  id: string;
  status: string;
  finished_at: string | null;
  reports: { kind: string; state: string; ok: boolean; error_code: string | null; reason?: string }[];
}

const TOKEN = 'ghp_failures0token0never0logged0123456';
let delivery = 0;

/** A forge that fails the way networks do: the outcome on the job says why, and a stuck start never holds the verdict back. */
describe('server: forge reports that fail, and why', function () {
  this.timeout(90_000);
  let work: TempDir;
  let git: GitFixtures;
  const servers: ServerProcess[] = [];
  let stalled: ConnectionRecorder | null = null;
  let github: FakeForge | null = null;

  before(async () => {
    work = await makeTempDir('cadence-forge-failures-');
    git = await serveRepositories(work.path);
  });
  after(async () => {
    await Promise.all(servers.map((s) => s.stop()));
    await stalled?.close();
    await github?.close();
    await git?.close();
    await work?.remove();
  });

  async function serverFor(apiUrl: string): Promise<ServerProcess> {
    const dir = await makeTempDir('cadence-forge-failures-srv-');
    const server = await startCadenceServer({
      cwd: dir.path,
      config: { security: { allowed_networks: ['127.0.0.0/8'] }, forges: { github: { api_url: apiUrl } } },
      env: { CADENCE_GITHUB_TOKEN: TOKEN },
    });
    servers.push(server);
    return server;
  }

  async function push(server: ServerProcess): Promise<string> {
    const body = JSON.stringify(githubPushPayload(git.daemon.url('acme/human.git'), git.hashes[5]!, git.hashes[9]!));
    const accepted = await server.json<{ id: string }>('/webhooks/github', {
      method: 'POST',
      headers: {
        'x-github-event': 'push',
        'x-github-delivery': `failures-${++delivery}`,
        'x-hub-signature-256': await sign(SECRET, body),
        'content-type': 'application/json',
      },
      body,
    });
    expect(accepted.status).to.equal(202);
    return accepted.body.id;
  }

  it('names a refused connection and an HTTP status as the cause', async () => {
    const closed = await freePort();
    const refused = await serverFor(`http://127.0.0.1:${closed}`);
    const job = await waitForReports<JobBody>(refused, await push(refused), 2, 60_000);
    expect(job.reports.map((r) => [r.state, r.ok, r.error_code])).to.deep.equal([
      ['pending', false, 'ERR_FORGE_UNAVAILABLE'],
      ['success', false, 'ERR_FORGE_UNAVAILABLE'],
    ]);
    // The pending call, retried past the grace the final call gives it, may have been stopped instead.
    expect(job.reports[0]!.reason).to.be.oneOf([
      `connection refused (127.0.0.1:${closed})`,
      'stopped (the job ended or the final status went ahead)',
    ]);
    expect(job.reports[1]!.reason).to.equal(`connection refused (127.0.0.1:${closed})`);

    github = await startFakeGithub();
    github.script(
      'POST',
      /\/statuses\//,
      [403, 403].map(() => ({ status: 403, body: { message: 'Resource not accessible by integration' } })),
    );
    const forbidden = await serverFor(github.apiUrl);
    const answered = await waitForReports<JobBody>(forbidden, await push(forbidden), 2);
    expect(answered.reports.map((r) => [r.error_code, r.reason])).to.deep.equal([
      ['ERR_FORGE_AUTH', 'HTTP 403: Resource not accessible by integration'],
      ['ERR_FORGE_AUTH', 'HTTP 403: Resource not accessible by integration'],
    ]);
  });

  it('attempts the final status within seconds of the job\u2019s end when the pending one is stuck', async () => {
    stalled = await startConnectionRecorder('127.0.0.1', 'stall');
    const server = await serverFor(`http://127.0.0.1:${stalled.port}`);
    const id = await push(server);
    const job = await waitForJob<JobBody>(server, id, 60_000);
    expect(job.status).to.equal('completed');
    const ended = Date.parse(job.finished_at!);
    // The pending call holds one connection; the final status opens another.
    await eventually(() => stalled!.connections() >= 2, 'the final status attempted', { timeoutMs: 10_000 });
    expect(Date.now() - ended).to.be.below(6_000);
  });
});
