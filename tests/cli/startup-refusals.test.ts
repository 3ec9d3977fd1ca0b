import { expect } from 'chai';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { makeTempDir, runCadence, startCadenceServer, type CliRun, type TempDir } from '@cadence-detect/test-support';

/**
 * Values the schema's types allow but that would misbehave once running: refused at start-up,
 * exit code 2 and one line naming the key, as any invalid configuration is (docs/configuration.md).
 */
describe('configuration refused at start-up (the real CLI process)', function () {
  this.timeout(60_000);
  let work: TempDir;
  before(async () => {
    work = await makeTempDir('cadence-refusals-');
  });
  after(() => work.remove());

  let fileCount = 0;
  async function configFile(yaml: string): Promise<string> {
    const file = path.join(work.path, `config-${++fileCount}.yaml`);
    await writeFile(file, yaml);
    return file;
  }

  function expectRefused(run: CliRun, key: string): void {
    expect(run.code, run.stderr).to.equal(2);
    expect(run.stderr.trim().split('\n'), run.stderr).to.have.length(1);
    expect(run.stderr).to.contain(key);
  }

  /** The server: a refusal exits at once; a server that starts instead is stopped by the time limit (code null). */
  const webhook = (args: string[], env: NodeJS.ProcessEnv): Promise<CliRun> =>
    runCadence(['webhook', '--port', '0', '--host', '127.0.0.1', ...args], {
      cwd: work.path,
      env: { CADENCE_WEBHOOK_SECRET: 'test-webhook-secret-0123456789', ...env },
      timeoutMs: 15_000,
    });

  // A Node timer holds at most 2^31 - 1 ms; a longer one fires after 1 ms, so a month-long job
  // timeout would time every job out at once.
  const TIMER_KEYS = [
    'webhook.read_timeout_seconds',
    'webhook.write_timeout_seconds',
    'limits.job_timeout_seconds',
    'limits.clone_timeout_seconds',
    'limits.shutdown_grace_seconds',
    'limits.fetch_timeout_seconds',
    'limits.strategy_timeout_seconds',
    'limits.stream_keepalive_seconds',
  ];
  for (const key of TIMER_KEYS) {
    it(`refuses ${key}: 3000000 (longer than a timer holds) and accepts 2147483`, async () => {
      const [section, name] = key.split('.');
      expectRefused(
        await runCadence(['config', '--config', await configFile(`${section}:\n  ${name}: 3000000\n`)], {
          cwd: work.path,
        }),
        key,
      );
      const fits = await runCadence(['config', '--config', await configFile(`${section}:\n  ${name}: 2147483\n`)], {
        cwd: work.path,
      });
      expect(fits.code, fits.stderr).to.equal(0);
    });
  }

  it('refuses a job timeout too long for a timer when the server starts, from the environment too', async () => {
    expectRefused(await webhook([], { CADENCE_LIMITS_JOB_TIMEOUT_SECONDS: '3000000' }), 'limits.job_timeout_seconds');
  });

  // The AI plugin's own settings: it refuses them as it starts, and the server stops before it listens.
  it('refuses an AI retry back-off whose first or last doubling, or a call timeout, is longer than a timer holds', async () => {
    expectRefused(await webhook([], { CADENCE_AI_RETRY_BACKOFF_INITIAL: '600h' }), 'ai.retry_backoff_initial');
    expectRefused(await webhook([], { RETRY_BACKOFF_INITIAL: 'soon' }), 'ai.retry_backoff_initial');
    expectRefused(await webhook([], { CADENCE_AI_RETRY_COUNT: '40' }), 'ai.retry_count');
    expectRefused(
      await webhook(['--config', await configFile('ai:\n  timeout_seconds: 3000000\n')], {}),
      'ai.timeout_seconds',
    );
  });

  it("reads --timeout with the configuration's duration parser (a bare number is seconds) and refuses others with exit 2", async () => {
    for (const bad of ['abc', '0', '10x', '-5s']) {
      const run = await webhook(['--timeout', bad], {});
      expect(run.code, `--timeout ${bad}: ${run.stderr}`).to.equal(2);
      expect(run.stderr).to.contain('--timeout');
    }
  });

  it('refuses a security.allowed_networks entry that is not a CIDR, from a file and from the environment', async () => {
    expectRefused(
      await webhook(['--config', await configFile('security:\n  allowed_networks: ["10.0.0.0/33"]\n')], {}),
      'security.allowed_networks',
    );
    expectRefused(
      await webhook([], { CADENCE_SECURITY_ALLOWED_NETWORKS: '127.0.0.2/32,not-a-network' }),
      'security.allowed_networks',
    );
    expectRefused(
      await runCadence(['config'], { cwd: work.path, env: { CADENCE_SECURITY_ALLOWED_NETWORKS: '300.1.1.1' } }),
      'security.allowed_networks',
    );
    expectRefused(
      await webhook([], { CADENCE_API_TRUSTED_PROXIES: '10.0.0.0/8,proxy.example' }),
      'api.trusted_proxies',
    );
  });

  it('refuses CADENCE_ANALYSIS_NICENESS that is not a whole number from 0 to 19', async () => {
    for (const value of ['20', '-1', 'low', '1.5', ''])
      expectRefused(await webhook([], { CADENCE_ANALYSIS_NICENESS: value }), 'CADENCE_ANALYSIS_NICENESS');
  });

  it('refuses CADENCE_API_TOKEN set but empty, and an empty api.token in a file', async () => {
    const fromEnv = await webhook([], { CADENCE_API_TOKEN: '' });
    expectRefused(fromEnv, 'CADENCE_API_TOKEN');
    expectRefused(await webhook(['--config', await configFile('api:\n  token: ""\n')], {}), 'api.token');
  });

  it('refuses a webhook secret shorter than 16 characters, and starts with one of 16', async () => {
    expectRefused(await webhook([], { CADENCE_WEBHOOK_SECRET: 'short-secret' }), 'webhook.secret');
    expectRefused(await webhook(['--secret', '0123456789abcde'], {}), 'webhook.secret');
    const server = await startCadenceServer({ cwd: work.path, secret: '0123456789abcdef' });
    expect((await server.json('/health')).status).to.equal(200);
    await server.stop();
  });
});
