import { expect } from 'chai';
import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import {
  createRepository,
  makeTempDir,
  runCadence,
  startCadenceServer,
  waitForJob,
  type TempDir,
} from '@cadence-detect/test-support';

/**
 * `cadence analyze .` in a cloned repository: the repository chooses its `.cadence.yaml`, its
 * node_modules and anything else in the working directory, so none of it may load code. Every
 * module below writes a marker file when it is imported; a marker is code that ran.
 */
describe('a working directory never loads code (the real CLI process)', function () {
  this.timeout(60_000);
  let work: TempDir;
  let repo: string;
  let markers: string;

  /** A valid plugin package whose module, on import, writes `<markers>/<marker>`. */
  async function writePlugin(dir: string, name: string, marker: string, keywords: string[] = []): Promise<void> {
    await mkdir(dir, { recursive: true });
    await writeFile(
      path.join(dir, 'package.json'),
      JSON.stringify({
        name,
        version: '1.0.0',
        type: 'module',
        main: 'index.js',
        keywords,
        peerDependencies: { '@cadence-detect/plugin-sdk': '^2.0.0' },
      }),
    );
    await writeFile(
      path.join(dir, 'index.js'),
      `import { writeFileSync } from 'node:fs';\nwriteFileSync(${JSON.stringify(path.join(markers, marker))}, 'ran');\nexport default { name: ${JSON.stringify(name)}, apply() {} };\n`,
    );
  }

  const ran = async (): Promise<string[]> => (await readdir(markers)).sort();

  before(async () => {
    work = await makeTempDir('cadence-untrusted-');
    markers = path.join(work.path, 'markers');
    await mkdir(markers);
    repo = path.join(work.path, 'cloned');
    await mkdir(repo);
    await createRepository(repo, [{ message: 'Initial import', date: Date.UTC(2024, 0, 1) / 1000, addLines: 10 }]);
    await writeFile(path.join(repo, '.cadence.yaml'), 'plugins: [./evil]\nthresholds:\n  suspicious_additions: 4242\n');
    await writePlugin(path.join(repo, 'evil'), 'evil-local', 'config-plugin');
    await writePlugin(path.join(repo, 'node_modules', 'evil-plugin'), 'evil-plugin', 'discovered-plugin', [
      'cadence-plugin',
    ]);
    // cosmiconfig, which found configuration files before, also ran this "meta" configuration.
    await mkdir(path.join(repo, '.config'));
    await writeFile(
      path.join(repo, '.config', 'config.cjs'),
      `require('node:fs').writeFileSync(${JSON.stringify(path.join(markers, 'meta-config'))}, 'ran');\nmodule.exports = {};\n`,
    );
  });
  beforeEach(async () => {
    await rm(markers, { recursive: true, force: true });
    await mkdir(markers);
  });
  after(() => work.remove());

  const WARNING =
    /^cadence: warning: Ignored plugins in .*cloned\/\.cadence\.yaml: a configuration found from the working directory sets analysis data only .*, never loads code/m;

  it('cadence analyze . ignores the project file\u2019s plugins (one warning) and the working directory\u2019s node_modules', async () => {
    const run = await runCadence(['analyze', '.', '--json'], { cwd: repo });
    expect(run.code, run.stderr).to.equal(0);
    expect(await ran()).to.deep.equal([]);
    expect(run.stderr).to.match(WARNING);
    expect(run.stderr.split('\n').filter((line) => line.includes('Ignored plugins in'))).to.have.length(1);
    const strategies = (JSON.parse(run.stdout) as { strategy_results: { name: string }[] }).strategy_results.map(
      (s) => s.name,
    );
    expect(strategies).to.not.include('evil-local').and.not.include('evil-plugin');
  });

  it('still takes data from the project file', async () => {
    const run = await runCadence(['config'], { cwd: repo });
    expect(run.code, run.stderr).to.equal(0);
    expect(run.stdout)
      .to.contain('suspicious_additions: 4242')
      .and.match(/^plugins: \[\]$/m);
    expect(run.stderr).to.match(WARNING);
    expect(await ran()).to.deep.equal([]);
  });

  it('cadence plugins lists neither and runs neither', async () => {
    const run = await runCadence(['plugins'], { cwd: repo });
    expect(run.code, run.stderr).to.equal(0);
    expect(run.stdout).to.not.contain('evil');
    expect(run.stderr).to.match(WARNING);
    expect(await ran()).to.deep.equal([]);
  });

  it('cadence webhook starts there without them, with a warn log line', async () => {
    const server = await startCadenceServer({ cwd: repo });
    try {
      const plugins = await server.json<{ package: string }[]>('/api/plugins');
      expect(plugins.body.map((p) => p.package).join(' ')).to.not.contain('evil');
      const warned = server.logs.filter((l) => l.level === 'warn' && String(l.message).includes('Ignored plugins in'));
      expect(warned).to.have.length(1);
    } finally {
      await server.stop();
    }
    expect(await ran()).to.deep.equal([]);
  });

  it('cadence webhook runs jobs in a folder whose package.json holds settings under cadence (its analysis data applies)', async () => {
    const folder = path.join(work.path, 'manifest');
    await mkdir(folder);
    await writeFile(
      path.join(folder, 'package.json'),
      JSON.stringify({
        name: 'some-app',
        version: '1.0.0',
        cadence: { thresholds: { suspicious_additions: 1 }, plugins: ['./evil'] },
      }),
    );
    const server = await startCadenceServer({ cwd: folder, env: { CADENCE_SECURITY_ALLOW_LOCAL_PATHS: 'true' } });
    try {
      const accepted = await server.json<{ id: string }>('/api/analyze/repository', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ url: repo }),
      });
      expect(accepted.status, JSON.stringify(accepted.body)).to.equal(202);
      const job = await waitForJob<{
        status: string;
        error: string | null;
        result: { thresholds: { suspicious_additions: number }; detections: { strategy: string }[] };
      }>(server, accepted.body.id, 30_000);
      expect(job.status, String(job.error)).to.equal('completed');
      // The analysis thread used the threshold the main thread resolved (a 10-line commit is over 1).
      expect(job.result.thresholds.suspicious_additions).to.equal(1);
      expect(job.result.detections.map((d) => d.strategy)).to.include('size');
    } finally {
      await server.stop();
    }
    expect(await ran()).to.deep.equal([]);
  });

  it('loads the same plugin when the user names the file with --config', async () => {
    const run = await runCadence(['plugins', '--config', '.cadence.yaml'], { cwd: repo });
    expect(run.code, run.stderr).to.equal(0);
    expect(run.stdout).to.match(/loaded\s+evil-local\s+1\.0\.0\s+config/);
    expect(run.stderr).to.not.contain('warning');
    const analyze = await runCadence(['analyze', '.', '--config', '.cadence.yaml'], { cwd: repo });
    expect(analyze.code, analyze.stderr).to.equal(0);
    // Named through the user's choice, it ran; the working directory's node_modules still did not.
    expect(await ran()).to.deep.equal(['config-plugin']);
  });

  for (const where of ['XDG_CONFIG_HOME', 'HOME'] as const) {
    it(`loads plugins named in the user\u2019s configuration folder (${where === 'HOME' ? '~/.config/cadence' : '$XDG_CONFIG_HOME/cadence'}/config.yaml)`, async () => {
      const home = path.join(work.path, `home-${where}`);
      const folder = where === 'HOME' ? path.join(home, '.config', 'cadence') : path.join(home, 'xdg', 'cadence');
      await writePlugin(path.join(folder, 'plugins', 'mine'), 'my-plugin', 'user-plugin');
      await writeFile(path.join(folder, 'config.yaml'), 'plugins: [./plugins/mine]\n');
      const env = where === 'HOME' ? { HOME: home } : { HOME: home, XDG_CONFIG_HOME: path.join(home, 'xdg') };
      const listing = await runCadence(['plugins'], { cwd: repo, env });
      expect(listing.code, listing.stderr).to.equal(0);
      expect(listing.stdout).to.match(/loaded\s+my-plugin\s+1\.0\.0\s+config/);
      const analyze = await runCadence(['analyze', '.', '--json'], { cwd: repo, env });
      expect(analyze.code, analyze.stderr).to.equal(0);
      // The user's file over the project file: its plugins load, the project's data still applies where the user's file is silent.
      const config = await runCadence(['config'], { cwd: repo, env });
      expect(config.stdout).to.contain('suspicious_additions: 4242').and.contain('- ./plugins/mine');
      expect(await ran()).to.deep.equal(['user-plugin']);
    });
  }
});
