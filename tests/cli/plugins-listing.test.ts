import { expect } from 'chai';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { makeTempDir, runCadence, type TempDir } from '@cadence-detect/test-support';

const checkout = path.resolve(fileURLToPath(new URL('.', import.meta.url)), '../..');

/** The package rows of `cadence plugins` (the header and the indented detail lines left out). */
function rows(stdout: string): { status: string; name: string; source: string }[] {
  return stdout
    .split('\n')
    .slice(1)
    .filter((line) => /^\S/.test(line))
    .map((line) => {
      const [status, name, , source] = line.split(/\s+/);
      return { status: status!, name: name!, source: source! };
    });
}

/**
 * A package reached twice — a `plugins:` entry naming a built-in's folder, which the host loads
 * through a symlink of its node_modules — is one package and one row; a second copy elsewhere with
 * the same name is a real conflict and stays listed as a duplicate.
 */
describe('cadence plugins lists each package once (the real CLI process)', function () {
  this.timeout(60_000);
  let work: TempDir;

  before(async () => {
    work = await makeTempDir('cadence-plugins-listing-');
  });
  after(() => work.remove());

  it('shows a built-in also named in plugins: once, as the built-in', async () => {
    const config = path.join(work.path, 'same.yaml');
    await writeFile(config, `plugins:\n  - ${JSON.stringify(path.join(checkout, 'plugins', 'size'))}\n`);
    const run = await runCadence(['plugins', '--config', config], { cwd: work.path });
    expect(run.code, run.stderr).to.equal(0);
    const size = rows(run.stdout).filter((row) => row.name === '@cadence-detect/plugin-size');
    expect(size).to.deep.equal([{ status: 'loaded', name: '@cadence-detect/plugin-size', source: 'builtin' }]);
    expect(run.stdout).to.not.contain('duplicate');
  });

  it('keeps its columns aligned when a package name is longer than the column', async () => {
    const longName = '@a-rather-long-scope/cadence-plugin-with-a-name-longer-than-forty-characters';
    const dir = path.join(work.path, 'long-name');
    await mkdir(dir);
    await writeFile(
      path.join(dir, 'package.json'),
      JSON.stringify({ name: longName, version: '1.0.0', type: 'module', main: 'index.js' }),
    );
    await writeFile(path.join(dir, 'index.js'), "export default { name: 'long-name', apply() {} };\n");
    const config = path.join(work.path, 'long.yaml');
    await writeFile(config, 'plugins: [./long-name]\n');
    const run = await runCadence(['plugins', '--config', config], { cwd: work.path });
    expect(run.code, run.stderr).to.equal(0);
    const lines = run.stdout.split('\n').filter((line) => /^\S/.test(line));
    const versionAt = lines[0]!.indexOf('VERSION');
    expect(versionAt).to.be.above(longName.length);
    for (const line of lines.slice(1)) expect(line[versionAt - 1], line).to.equal(' ');
    expect(lines.find((line) => line.includes(longName))!.slice(versionAt, versionAt + 5)).to.equal('1.0.0');
  });

  it('lists another copy of a built-in as a duplicate, naming the folder of the one that loaded', async () => {
    const copy = path.join(work.path, 'copy-of-size');
    await mkdir(copy);
    await writeFile(
      path.join(copy, 'package.json'),
      JSON.stringify({
        name: '@cadence-detect/plugin-size',
        version: '9.9.9',
        type: 'module',
        main: 'index.js',
        peerDependencies: { '@cadence-detect/plugin-sdk': '^2.0.0' },
      }),
    );
    await writeFile(path.join(copy, 'index.js'), "export default { name: 'size', apply() {} };\n");
    const config = path.join(work.path, 'copy.yaml');
    await writeFile(config, 'plugins: [./copy-of-size]\n');
    const run = await runCadence(['plugins', '--config', config], { cwd: work.path });
    expect(run.code, run.stderr).to.equal(0);
    const size = rows(run.stdout).filter((row) => row.name === '@cadence-detect/plugin-size');
    expect(size).to.deep.equal([
      { status: 'loaded', name: '@cadence-detect/plugin-size', source: 'builtin' },
      { status: 'duplicate', name: '@cadence-detect/plugin-size', source: 'config' },
    ]);
    expect(run.stdout).to.match(
      /another copy is already loaded \(builtin, \S*host\/node_modules\/@cadence-detect\/plugin-size\)/,
    );
  });
});
