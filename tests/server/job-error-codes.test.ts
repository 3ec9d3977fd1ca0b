import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import {
  createRepository,
  exportRepository,
  jsonPost,
  makeTempDir,
  runGit,
  startCadenceServer,
  waitForJob,
  type ServerProcess,
  type TempDir,
} from '@cadence-detect/test-support';
import { readStream, serveRepositories, type GitFixtures } from './fixtures.js';

interface FailedJob {
  id: string;
  status: string;
  error: string | null;
  error_code: string | null;
  error_reason: string | null;
}

/**
 * The interface's error codes as API clients see them in job records and stream events: each code
 * Cadence emits for a repository job, from a real server cloning over git://.
 */
describe('server: jobs fail with the HTTP interface\u2019s error codes', function () {
  this.timeout(90_000);
  let work: TempDir;
  let git: GitFixtures;
  let server: ServerProcess;

  before(async () => {
    work = await makeTempDir('cadence-job-codes-');
    git = await serveRepositories(work.path);
    // An empty repository, and one whose 3 MiB of incompressible data pass a 1 MiB size cap.
    await runGit(work.path, ['init', '--quiet', '--bare', path.join(git.served, 'acme/empty.git')]);
    const largeDir = path.join(work.path, 'large');
    await mkdir(largeDir);
    await createRepository(largeDir, [
      {
        message: 'Add data',
        date: 1_700_000_000,
        files: { 'data.txt': randomBytes(3 * 1024 * 1024).toString('base64') },
      },
    ]);
    await exportRepository(git.served, 'acme/large.git', largeDir);
    server = await startCadenceServer({
      cwd: work.path,
      config: {
        security: { allowed_networks: ['127.0.0.0/8'] },
        strategies: { disabled: ['commit-model'] },
        limits: { job_timeout_seconds: 60, max_repo_size_mb: 1 },
      },
    });
  });
  after(async () => {
    await server?.stop();
    await git?.close();
    await work?.remove();
  });

  const failedJob = async (body: Record<string, unknown>): Promise<FailedJob> => {
    const accepted = await server.json<{ id: string }>('/api/analyze/repository', jsonPost(body));
    expect(accepted.status).to.equal(202);
    return waitForJob<FailedJob>(server, accepted.body.id);
  };

  it('a missing branch: ERR_NO_COMMITS_FOUND, reason branch_not_found, the message naming the branch; the stream says the same', async () => {
    const job = await failedJob({ url: git.daemon.url('acme/human.git'), branch: 'no-such-branch' });
    expect(job).to.include({ status: 'failed', error_code: 'ERR_NO_COMMITS_FOUND', error_reason: 'branch_not_found' });
    expect(job.error).to.contain('no-such-branch');
    const events = await readStream(`${server.url}/jobs/${job.id}/events`);
    expect(events.at(-1)).to.deep.include({
      event: 'error',
      error: 'ERR_NO_COMMITS_FOUND',
      reason: 'branch_not_found',
    });
  });

  it('an empty repository: ERR_NO_COMMITS_FOUND, no finer reason', async () => {
    const job = await failedJob({ url: git.daemon.url('acme/empty.git') });
    expect(job).to.include({ status: 'failed', error_code: 'ERR_NO_COMMITS_FOUND', error_reason: null });
  });

  it('a repository over limits.max_repo_size_mb: ERR_REPOSITORY_TOO_LARGE', async () => {
    const job = await failedJob({ url: git.daemon.url('acme/large.git') });
    expect(job).to.include({ status: 'failed', error_code: 'ERR_REPOSITORY_TOO_LARGE', error_reason: null });
  });

  it('an unreachable repository: ERR_GIT_CLONE_FAILED', async () => {
    const job = await failedJob({ url: 'git://127.0.0.1:1/acme/none.git' });
    expect(job).to.include({ status: 'failed', error_code: 'ERR_GIT_CLONE_FAILED', error_reason: null });
  });
});
