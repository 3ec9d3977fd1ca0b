import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { cp, mkdir, readdir, symlink, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { PLUGIN_API_VERSION } from '@cadence-detect/plugin-sdk';
import { main } from '@cadence-detect/create-plugin';
import {
  createRepository,
  exportRepository,
  makeTempDir,
  runCadence,
  startCadenceServer,
  startGitDaemon,
  waitForJob,
  type GitDaemon,
  type ServerProcess,
  type TempDir,
} from '@cadence-detect/test-support';

const run = promisify(execFile);
const root = path.resolve(fileURLToPath(new URL('.', import.meta.url)), '../..');

interface Job {
  status: string;
  result?: {
    detections: { strategy: string; commit?: string; message: string }[];
    strategy_results: { name: string }[];
  };
}

/**
 * The published-plugin path, as a third party would take it: pack the SDK and the example with the
 * package managers, install the tarballs with npm into a project of their own (offline: every
 * dependency is one of the tarballs), install the host there too, and start that host.
 */
/** The folder of the installed package `name` that `entry` belongs to (not every package exports its package.json). */
function packageFolder(entry: string, name: string): string {
  for (let dir = path.dirname(entry); dir !== path.dirname(dir); dir = path.dirname(dir)) {
    const manifest = path.join(dir, 'package.json');
    if (existsSync(manifest) && (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name === name)
      return dir;
  }
  throw new Error(`no package folder for ${name} above ${entry}`);
}

/** The folders of a package's dependencies that are not workspace packages, and of theirs, once each. */
function thirdPartyDependencies(packageDir: string, seen = new Set<string>()): string[] {
  const manifest = JSON.parse(readFileSync(path.join(packageDir, 'package.json'), 'utf8')) as {
    dependencies?: Record<string, string>;
  };
  const need = createRequire(path.join(packageDir, 'package.json'));
  const found: string[] = [];
  for (const [name, range] of Object.entries(manifest.dependencies ?? {})) {
    if (range.startsWith('workspace:')) continue;
    const dir = packageFolder(need.resolve(name), name);
    if (seen.has(dir)) continue;
    seen.add(dir);
    found.push(dir, ...thirdPartyDependencies(dir, seen));
  }
  return found;
}

/** Writes the plugin starter's package (`npm init @cadence-detect/plugin binary-drops`) and packs it into `tarballs`; returns its README. */
async function packStarter(dir: string, tarballs: string): Promise<string> {
  const said: string[] = [];
  const io = {
    cwd: path.dirname(dir),
    out: { write: (t: string) => said.push(t) },
    err: { write: (t: string) => said.push(t) },
  };
  if ((await main(['binary-drops', '--dir', dir], io)) !== 0) throw new Error(`the starter failed: ${said.join('')}`);
  await run('npm', ['pack', dir, '--pack-destination', tarballs], { cwd: path.dirname(dir) });
  return readFileSync(path.join(dir, 'README.md'), 'utf8');
}

describe('a third-party plugin installed from packed tarballs', function () {
  this.timeout(120_000);
  let work: TempDir;
  let project: string;
  let daemon: GitDaemon;
  let droppedCommit: string;
  /** The deployment's own `cadence`: discovery looks in the installation the bin runs from. */
  let deployedBin: string;
  let starterReadme: string;

  before(async () => {
    work = await makeTempDir('cadence-published-');
    const tarballs = path.join(work.path, 'tarballs');
    await mkdir(tarballs);
    for (const pkg of ['packages/errors', 'packages/plugin-sdk']) {
      await run('pnpm', ['pack', '--pack-destination', tarballs], { cwd: path.join(root, pkg) });
    }
    // The SDK's third-party dependencies (tapable for its hook types, p-retry for retrying(), typebox
    // for the option types) and the example's (typebox, its options schema), and theirs, each packed
    // from its installed copy (by pnpm: `npm pack <folder>` of typebox's some 1400 files dies with
    // "Exit handler never called").
    const seen = new Set<string>();
    for (const dir of [
      path.join(root, 'packages/plugin-sdk'),
      path.join(root, 'examples/cadence-plugin-file-drops'),
    ].flatMap((pkg) => thirdPartyDependencies(pkg, seen))) {
      await run('pnpm', ['pack', '--pack-destination', tarballs], { cwd: dir });
    }
    await run('npm', ['pack', path.join(root, 'examples/cadence-plugin-file-drops'), '--pack-destination', tarballs], {
      cwd: work.path,
    });
    // The plugin starter's package, as its author would publish it, installed beside the example.
    starterReadme = await packStarter(path.join(work.path, 'starter'), tarballs);
    project = path.join(work.path, 'deployment');
    await mkdir(project);
    await writeFile(
      path.join(project, 'package.json'),
      JSON.stringify({ name: 'my-cadence-deployment', private: true }),
    );
    const files = (await readdir(tarballs)).map((f) => path.join(tarballs, f));
    await run(
      'npm',
      ['install', '--offline', '--no-audit', '--no-fund', '--ignore-scripts', '--loglevel=error', ...files],
      { cwd: project },
    );
    // The host as `npm install @cadence-detect/cli` would place it: its built files in the deployment's
    // node_modules. Its own dependencies are linked from the workspace (packing them all offline
    // would be most of the monorepo); they live in the host's node_modules, not the deployment's.
    const hostCopy = path.join(project, 'node_modules', '@cadence-detect', 'cli');
    await mkdir(hostCopy, { recursive: true });
    for (const entry of ['package.json', 'bin', 'dist'])
      await cp(path.join(root, 'host', entry), path.join(hostCopy, entry), { recursive: true });
    await symlink(path.join(root, 'host', 'node_modules'), path.join(hostCopy, 'node_modules'), 'dir');
    deployedBin = path.join(hostCopy, 'bin', 'cadence.js');

    const repoDir = path.join(work.path, 'repo');
    await mkdir(repoDir);
    const repo = await createRepository(repoDir, [
      { message: 'Initial import', date: Date.UTC(2025, 0, 1) / 1000, addLines: 10 },
      { message: 'Add the parser', date: Date.UTC(2025, 0, 2) / 1000, addLines: 400, file: 'src/parser.txt' },
      { message: 'Fix typo', date: Date.UTC(2025, 0, 3) / 1000, addLines: 1 },
    ]);
    droppedCommit = repo.hashes[1]!;
    const served = path.join(work.path, 'served');
    await mkdir(served);
    await exportRepository(served, 'acme/assisted.git', repoDir);
    daemon = await startGitDaemon(served);
  });
  after(async () => {
    await daemon?.close();
    await work?.remove();
  });

  it('is discovered by its keyword in the installation and listed by cadence plugins, from any working directory', async () => {
    const listing = await runCadence(['plugins'], { cwd: work.path, bin: deployedBin });
    expect(listing.code).to.equal(0);
    expect(listing.stdout).to.match(/loaded\s+cadence-plugin-file-drops\s+1\.0\.0\s+discovered/);
    expect(listing.stdout).to.contain('- file-drops (size, repository');
  });

  it('is not discovered by another installation run with the deployment as working directory', async () => {
    const listing = await runCadence(['plugins'], { cwd: project });
    expect(listing.code).to.equal(0);
    expect(listing.stdout).to.not.contain('file-drops');
  });

  it('shows in /api/plugins and runs in a job through the real server', async () => {
    let server: ServerProcess | null = null;
    try {
      server = await startCadenceServer({
        cwd: project,
        bin: deployedBin,
        config: { security: { allowed_networks: ['127.0.0.0/8'] } },
      });
      const plugins = await server.json<{ name: string; package: string; version: string }[]>('/api/plugins');
      expect(plugins.body.find((p) => p.name === 'file-drops')).to.include({
        package: 'cadence-plugin-file-drops',
        version: '1.0.0',
      });
      const accepted = await server.json<{ id: string }>('/api/analyze/repository', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ url: daemon.url('acme/assisted.git') }),
      });
      const job = await waitForJob<Job>(server, accepted.body.id);
      expect(job.status).to.equal('completed');
      const detections = job.result!.detections.filter((d) => d.strategy === 'file-drops');
      expect(detections.map((d) => d.commit)).to.deep.equal([droppedCommit]);
      expect(detections[0]!.message).to.contain('src/parser.txt (400 lines, min_lines 300)');
    } finally {
      await server?.stop();
    }
  });

  it('the plugin starter\u2019s package does what its README says: installed, it is discovered and counts; named in the user configuration, it loads; disabled by name, it is listed so', async () => {
    // The README's steps: install it where cadence is installed (before: beside the example); it is discovered and counts.
    expect(starterReadme).to.contain('npm install -g cadence-plugin-binary-drops').and.contain('counts in every');
    const discovered = await runCadence(['plugins'], { cwd: work.path, bin: deployedBin });
    expect(discovered.code, discovered.stderr).to.equal(0);
    expect(discovered.stdout).to.match(/loaded\s+cadence-plugin-binary-drops\s+0\.1\.0\s+discovered/);
    expect(discovered.stdout).to.contain('- binary-drops (content, repository, weight 0.2)');
    // Named under plugins: in the user configuration, as the README shows: it resolves where cadence is installed.
    const home = path.join(work.path, 'config-home');
    await mkdir(path.join(home, 'cadence'), { recursive: true });
    await writeFile(path.join(home, 'cadence', 'config.yaml'), 'plugins: [cadence-plugin-binary-drops]\n');
    const named = await runCadence(['plugins'], { cwd: work.path, bin: deployedBin, env: { XDG_CONFIG_HOME: home } });
    expect(named.code, named.stderr).to.equal(0);
    // One row: named and discovered, it is one package.
    expect(
      named.stdout.split('\n').filter((l) => /^\S/.test(l) && l.includes('cadence-plugin-binary-drops')),
    ).to.have.length(1);
    expect(named.stdout).to.match(/loaded\s+cadence-plugin-binary-drops\s+0\.1\.0\s+config/);
    // Kept installed but not counted: the README's strategies.disabled.
    await writeFile(
      path.join(home, 'cadence', 'config.yaml'),
      'plugins: [cadence-plugin-binary-drops]\nstrategies:\n  disabled: [binary-drops]\n',
    );
    const disabled = await runCadence(['plugins'], {
      cwd: work.path,
      bin: deployedBin,
      env: { XDG_CONFIG_HOME: home },
    });
    expect(disabled.stdout).to.contain(
      '- binary-drops (content, repository, weight 0.2) [disabled by strategies.disabled]',
    );
  });

  it('is skipped when strategies.disabled names its strategy', async () => {
    await writeFile(path.join(project, '.cadence.yaml'), 'strategies:\n  disabled: [file-drops]\n');
    const listing = await runCadence(['plugins'], { cwd: project, bin: deployedBin });
    expect(listing.stdout).to.contain('file-drops (size, repository, weight 0.5) [disabled by strategies.disabled]');
  });
});

describe('a plugin named in the configuration that does not load', function () {
  this.timeout(60_000);
  let work: TempDir;
  before(async () => {
    work = await makeTempDir('cadence-named-plugin-');
  });
  after(() => work.remove());

  it('stops the server and the CLI with one clear message and exit code 2', async () => {
    // Named in a file the user chose (--config): a found .cadence.yaml loads no plugins at all.
    await writeFile(path.join(work.path, 'cadence.yaml'), 'plugins: [./plugins/missing-plugin]\n');
    const server = await runCadence(['webhook', '--port', '0', '--config', 'cadence.yaml'], {
      cwd: work.path,
      env: { CADENCE_WEBHOOK_SECRET: 'secret-0123456789' },
    });
    expect(server.code).to.equal(2);
    expect(server.stderr).to.contain('plugin ./plugins/missing-plugin (config) could not be loaded: not found');
    const analyze = await runCadence(['analyze', root, '--config', 'cadence.yaml'], { cwd: work.path });
    expect(analyze.code).to.equal(2);
    const listing = await runCadence(['plugins', '--config', 'cadence.yaml'], { cwd: work.path });
    expect(listing.stdout).to.match(/failed\s+\.\/plugins\/missing-plugin/);
  });

  it('refuses a plugin built for another plugin API version, saying which versions fit', async () => {
    const dir = path.join(work.path, 'plugins', 'future');
    await mkdir(dir, { recursive: true });
    await writeFile(
      path.join(dir, 'package.json'),
      JSON.stringify({
        name: 'cadence-plugin-future',
        version: '4.0.0',
        type: 'module',
        main: 'index.js',
        peerDependencies: { '@cadence-detect/plugin-sdk': '^3.0.0' },
      }),
    );
    await writeFile(path.join(dir, 'index.js'), 'export default { name: "future", apply() {} };');
    await writeFile(path.join(work.path, 'cadence.yaml'), 'plugins: [./plugins/future]\n');
    const server = await runCadence(['webhook', '--port', '0', '--config', 'cadence.yaml'], {
      cwd: work.path,
      env: { CADENCE_WEBHOOK_SECRET: 'secret-0123456789' },
    });
    expect(server.code).to.equal(2);
    expect(server.stderr).to.contain(`targets plugin API ^3.0.0, but this host provides ${PLUGIN_API_VERSION}`);
  });
});
