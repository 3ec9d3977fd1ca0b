import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, readdir, readFile, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { makeTempDir, type TempDir } from '@cadence-detect/test-support';
import { main, starterNames, PLUGIN_SDK_VERSION, PLUGIN_TESTKIT_VERSION } from '../src/index.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const run = promisify(execFile);

function io(cwd: string) {
  const out: string[] = [];
  const err: string[] = [];
  return {
    io: { cwd, out: { write: (t: string) => out.push(t) }, err: { write: (t: string) => err.push(t) } },
    out: () => out.join(''),
    err: () => err.join(''),
  };
}

describe('create-plugin (npm init @cadence-detect/plugin)', function () {
  this.timeout(120_000);
  let work: TempDir;
  before(async () => {
    work = await makeTempDir('cadence-create-plugin-');
  });
  after(async () => {
    await work.remove();
  });

  it('names the package and the plugin from what it is given', () => {
    expect(starterNames('big-commits')).to.deep.equal({
      packageName: 'cadence-plugin-big-commits',
      pluginName: 'big-commits',
    });
    expect(starterNames('cadence-plugin-big-commits').packageName).to.equal('cadence-plugin-big-commits');
    expect(starterNames('@acme/cadence-plugin-x')).to.deep.equal({
      packageName: '@acme/cadence-plugin-x',
      pluginName: 'x',
    });
    expect(starterNames('@acme/x').packageName).to.equal('@acme/cadence-plugin-x');
    for (const bad of ['', 'Big', 'a b', '../x', 'x/y', '@acme/', 'cadence-plugin-', '-x', 'x_y'])
      expect(() => starterNames(bad), bad).to.throw(/cannot name a plugin/);
  });

  it('writes a plugin package whose npm test and npm run typecheck pass at once', async () => {
    const session = io(work.path);
    expect(await main(['big-commits'], session.io)).to.equal(0);
    const dir = path.join(work.path, 'cadence-plugin-big-commits');
    expect(session.out()).to.include(`Wrote cadence-plugin-big-commits (plugin and strategy "big-commits") in ${dir}`);
    expect((await readdir(dir)).sort()).to.deep.equal([
      '.gitignore',
      'README.md',
      'index.js',
      'package.json',
      'src',
      'test',
      'tsconfig.json',
    ]);
    const manifest = JSON.parse(await readFile(path.join(dir, 'package.json'), 'utf8')) as Record<string, never>;
    expect(manifest).to.include({ name: 'cadence-plugin-big-commits', type: 'module' });
    expect(manifest.keywords).to.deep.equal(['cadence-plugin']);
    expect(manifest.peerDependencies).to.deep.equal({ '@cadence-detect/plugin-sdk': `^${PLUGIN_SDK_VERSION}` });
    // Installed as the workspace's own packages would be (no registry in a test): the same modules.
    await symlink(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
    const tested = await run('npm', ['test'], { cwd: dir });
    expect(tested.stdout).to.match(/3 passing/);
    expect(tested.stdout).to.include('a commit of 30 binary files');
    await run('npm', ['run', 'typecheck'], { cwd: dir });
  });

  it('writes a test that can fail: a strategy that finds nothing fails its invalid case', async () => {
    const session = io(work.path);
    expect(await main(['@acme/quiet', '--dir', 'quiet'], session.io)).to.equal(0);
    const dir = path.join(work.path, 'quiet');
    const source = path.join(dir, 'src', 'plugin.js');
    await writeFile(source, (await readFile(source, 'utf8')).replace('binaryFiles(commit) > max', 'false'));
    await symlink(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
    const failed = await run('npm', ['test'], { cwd: dir }).then(
      () => null,
      (error: { stdout: string }) => error.stdout,
    );
    expect(failed)
      .to.match(/2 passing/)
      .and.to.match(/1 failing/);
  });

  it('refuses a bad name and a folder that is not empty, in one line, writing nothing', async () => {
    const bad = io(work.path);
    expect(await main(['Big Commits'], bad.io)).to.equal(2);
    expect(bad.err()).to.match(/^create-plugin: "Big Commits" cannot name a plugin/);
    const taken = path.join(work.path, 'taken');
    await mkdir(taken);
    await writeFile(path.join(taken, 'notes.txt'), 'mine');
    const busy = io(work.path);
    expect(await main(['taken-plugin', '--dir', 'taken'], busy.io)).to.equal(2);
    expect(busy.err()).to.equal(`create-plugin: ${taken} is not empty: choose a new folder (nothing was written)\n`);
    expect(await readdir(taken)).to.deep.equal(['notes.txt']);
    const none = io(work.path);
    expect(await main([], none.io)).to.equal(2);
    expect(none.err()).to.match(/^create-plugin: give one name\nUsage: npm init @cadence-detect\/plugin/);
    expect(await main(['x', '--bogus'], io(work.path).io)).to.equal(2);
  });

  it('refuses a link as the folder (to an empty folder, or dangling), in one line, writing nothing', async () => {
    const empty = path.join(work.path, 'elsewhere-empty');
    await mkdir(empty);
    await symlink(empty, path.join(work.path, 'linked'));
    await symlink(path.join(work.path, 'nowhere'), path.join(work.path, 'dangling'));
    for (const name of ['linked', 'dangling']) {
      const run = io(work.path);
      expect(await main(['link-plugin', '--dir', name], run.io)).to.equal(2);
      expect(run.err()).to.equal(
        `create-plugin: ${path.join(work.path, name)} is a link: name a plain folder (nothing was written)\n`,
      );
    }
    expect(await readdir(empty)).to.deep.equal([]);
    expect(existsSync(path.join(work.path, 'nowhere'))).to.equal(false);
  });

  it('asks for the SDK and the testkit the workspace holds (pnpm version-packages keeps them so)', () => {
    const version = (dir: string) =>
      (JSON.parse(readFileSync(path.join(ROOT, 'packages', dir, 'package.json'), 'utf8')) as { version: string })
        .version;
    expect([PLUGIN_SDK_VERSION, PLUGIN_TESTKIT_VERSION]).to.deep.equal([
      version('plugin-sdk'),
      version('plugin-testkit'),
    ]);
    expect(existsSync(path.join(ROOT, 'packages/create-plugin/bin/create-plugin.js'))).to.equal(true);
  });
});
