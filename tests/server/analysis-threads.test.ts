import { expect } from 'chai';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import {
  eventually,
  makeTempDir,
  startCadenceServer,
  waitForJob,
  type ServerProcess,
  type TempDir,
  jsonPost,
} from '@cadence-detect/test-support';
import { serveRepositories, type GitFixtures } from './fixtures.js';

/** A strategy stuck in synchronous code on one repository: it never yields, so only its thread's end stops it. */
const STUCK_PLUGIN = `
import { writeFileSync } from 'node:fs';
const strategy = {
  meta: { name: 'spins', category: 'test', description: 'Never returns on acme/burst.', appliesTo: 'repository', weight: 1 },
  analyze(context) {
    if (context.commits.length === 6) {
      // Tells the test the thread is spinning from now on.
      writeFileSync(new URL('./spinning', import.meta.url), '');
      for (;;) {}
    }
    return [];
  },
};
export default { name: 'spins', apiVersion: '^2.0.0', apply(hooks) { hooks.registerStrategies.tap('spins', (r) => r.add(strategy)); } };
`;

interface JobBody {
  id: string;
  status: string;
  error_code: string | null;
}

describe('analyses in worker threads (memory backend, the real server)', function () {
  this.timeout(150_000);
  let work: TempDir;
  let git: GitFixtures;
  let server: ServerProcess;

  before(async () => {
    work = await makeTempDir('cadence-threads-');
    git = await serveRepositories(work.path);
    const plugin = path.join(work.path, 'spins');
    await mkdir(plugin);
    await writeFile(
      path.join(plugin, 'package.json'),
      JSON.stringify({ name: 'spins', version: '1.0.0', type: 'module', main: 'index.js' }),
    );
    await writeFile(path.join(plugin, 'index.js'), STUCK_PLUGIN);
    // Plugins load from a file named with --config, never from one found in the working directory.
    const configFile = path.join(work.path, 'cadence.json');
    await writeFile(
      configFile,
      JSON.stringify({
        plugins: [plugin],
        security: { allowed_networks: ['127.0.0.0/8'] },
        limits: { job_timeout_seconds: 12 },
      }),
    );
    // The memory backend's behaviour, in the run whose other servers use Redis too.
    server = await startCadenceServer({
      cwd: work.path,
      args: ['--workers', '1', '--config', configFile],
      // The product's default niceness (test-support's servers run analyses at the HTTP thread's).
      env: { CADENCE_QUEUE_BACKEND: 'memory', CADENCE_ANALYSIS_NICENESS: undefined },
    });
  });
  after(async () => {
    await server?.stop();
    await git?.close();
    await work?.remove();
  });

  it('stops a strategy stuck in synchronous code at the job timeout, answers HTTP meanwhile, and runs the next job', async () => {
    // A first job warms the pool's thread (it loads the plugins), so the next one spins in the strategy, not in start-up.
    // On a loaded machine the first thread's start-up can take the 12 s job timeout: then the next
    // job finds the thread loaded. Three tries at most.
    let warmed = '';
    for (let attempt = 0; attempt < 3 && warmed !== 'completed'; attempt++) {
      const warm = await server.json<JobBody>(
        '/api/analyze/repository',
        jsonPost({ url: git.daemon.url('acme/human.git') }),
      );
      warmed = (await waitForJob<JobBody>(server, warm.body.id, 30_000)).status;
    }
    expect(warmed).to.equal('completed');
    const stuck = await server.json<JobBody>(
      '/api/analyze/repository',
      jsonPost({ url: git.daemon.url('acme/burst.git') }),
    );
    expect(stuck.status).to.equal(202);
    // The HTTP event loop is not the one spinning.
    await eventually(() => existsSync(path.join(work.path, 'spins', 'spinning')), 'the strategy spinning');
    const started = Date.now();
    const health = await server.json<{ active_jobs: number }>('/health');
    expect(Date.now() - started).to.be.below(500);
    expect(health.body.active_jobs).to.equal(1);
    const job = await waitForJob<JobBody>(server, stuck.body.id, 30_000);
    expect(job).to.include({ status: 'timeout', error_code: 'ERR_JOB_TIMEOUT' });
    // The log line travels its own pipe: it may arrive a moment after the job's record changed.
    await eventually(
      () => server.logs.some((l) => l.message === 'analysis thread did not stop; terminated'),
      'the terminated thread logged',
      { timeoutMs: 2000 },
    );
    // The pool's one thread was replaced: the next job runs. The new thread loads the plugins first,
    // which on a loaded machine can take the 12 s job timeout, as the warm-up's can: three tries at most.
    const outcomes: string[] = [];
    for (let attempt = 0; attempt < 3 && outcomes.at(-1) !== 'completed'; attempt++) {
      const again = await server.json<JobBody>(
        '/api/analyze/repository',
        jsonPost({ url: git.daemon.url('acme/human.git') }),
      );
      const ended = await waitForJob<JobBody>(server, again.body.id, 30_000);
      outcomes.push(ended.status === 'timeout' ? `timeout ${ended.error_code}` : ended.status);
    }
    // Completed at last; anything before it is a start-up that ran into the job timeout, never another failure.
    expect(outcomes.at(-1)).to.equal('completed');
    for (const early of outcomes.slice(0, -1)) expect(early).to.equal('timeout ERR_JOB_TIMEOUT');
  });

  it("runs its analysis threads below the HTTP thread's priority (10 nicer, on Linux), so intake comes first", async () => {
    // The previous test's last job left a loaded thread in the pool.
    const pid = server.child.pid!;
    const niceness = async (tid: string): Promise<number> => {
      // Fields after the command name (which may hold spaces) start at the state: nice is the 17th of them.
      const stat = await readFile(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
    };
    const threads = await readdir(`/proc/${pid}/task`);
    const values = await Promise.all(threads.map(niceness));
    // Relative to the process: a server started under `nice` keeps its analysis threads below it.
    const http = await niceness(String(pid));
    expect(
      values.filter((n) => n === Math.min(19, http + 10)),
      JSON.stringify(values),
    ).to.have.length.of.at.least(1);
  });

  it('runs them at the HTTP thread\u2019s priority with CADENCE_ANALYSIS_NICENESS=0', async () => {
    const level = await startCadenceServer({
      cwd: work.path,
      args: ['--workers', '1'],
      config: { security: { allowed_networks: ['127.0.0.0/8'] } },
      env: { CADENCE_QUEUE_BACKEND: 'memory', CADENCE_ANALYSIS_NICENESS: '0' },
    });
    try {
      const job = await level.json<JobBody>(
        '/api/analyze/repository',
        jsonPost({ url: git.daemon.url('acme/human.git') }),
      );
      expect((await waitForJob<JobBody>(level, job.body.id, 30_000)).status).to.equal('completed');
      const pid = level.child.pid!;
      const niceness = async (tid: string): Promise<number> => {
        const stat = await readFile(`/proc/${pid}/task/${tid}/stat`, 'utf8');
        return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
      };
      const http = await niceness(String(pid));
      const values = await Promise.all((await readdir(`/proc/${pid}/task`)).map(niceness));
      expect(
        values.every((n) => n === http),
        JSON.stringify(values),
      ).to.equal(true);
    } finally {
      await level.stop();
    }
  });
});
