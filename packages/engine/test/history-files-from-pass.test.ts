import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { createRepository, makeTempDir, runGit, type TempDir } from '@cadence-detect/test-support';
import { gitBinary } from '@cadence-detect/git-source';

const run = promisify(execFile);
const ENGINE = fileURLToPath(new URL('../dist/index.bundle.js', import.meta.url));
const CONFIG = fileURLToPath(new URL('../../config/dist/index.js', import.meta.url));
const T0 = Date.UTC(2025, 6, 1, 9) / 1000;

describe('engine: the history read takes its files from the one line pass', function () {
  this.timeout(60_000);
  let work: TempDir;
  let dir: string;
  let script: string;
  let wrapper: string;
  let log: string;

  before(async () => {
    work = await makeTempDir('cadence-files-from-pass-');
    dir = path.join(work.path, 'repo');
    await mkdir(dir);
    const repo = await createRepository(dir);
    const body = (n: number, tag: string): string =>
      Array.from({ length: n }, (_, i) => `  ${tag}_${i} = compute(${i})\n`).join('');
    await repo.commit({ message: 'start', date: T0, files: { 'src/a.py': body(30, 'a'), 'README.md': 'app\n' } });
    await repo.commit({ message: 'grow', date: T0 + 3600, files: { 'src/a.py': body(40, 'a') } });
    await runGit(dir, ['mv', 'src/a.py', 'src/b.py']);
    await repo.commit({
      message: 'move',
      date: T0 + 7200,
      files: { 'src/b.py': body(40, 'a').replaceAll('  ', '    ') },
    });
    // git as the engine runs it (CADENCE_GIT), through a script that notes what each git ran.
    log = path.join(work.path, 'git.log');
    wrapper = path.join(work.path, 'git');
    await writeFile(wrapper, `#!/bin/sh\necho "$*" >> "${log}"\nexec "${gitBinary()}" "$@"\n`);
    await chmod(wrapper, 0o755);
    script = path.join(work.path, 'analyze.mjs');
    await writeFile(
      script,
      [
        `import { createEngine, silentEngineLogger } from ${JSON.stringify(pathToFileURL(ENGINE).href)};`,
        `import { defaultConfig, toPluginConfigView } from ${JSON.stringify(pathToFileURL(CONFIG).href)};`,
        `const cache = process.argv[4] ? { cache: { repositories_dir: process.argv[4], repositories_max_size: 0 } } : {};`,
        `const engine = createEngine({ config: { limits: { clone_timeout_seconds: 60, max_repo_size_mb: 100, max_page_bytes: 1 << 20, fetch_timeout_seconds: 20, strategy_timeout_seconds: 30 }, git: { depth: 0 }, ...cache }, pluginConfig: toPluginConfigView(defaultConfig()), logger: silentEngineLogger(), plugins: [] });`,
        `const job = process.argv[3] === 'deadline' ? { job: { id: 'j', url: null, forge: null, deadline: Date.now() + 60000 } } : {};`,
        `const result = await engine.analyze({ kind: 'repository', url: process.argv[2] }, { network: null, allowLocalPaths: true, ...job });`,
        `process.stdout.write(JSON.stringify(result));`,
      ].join('\n'),
    );
  });
  after(() => work.remove());

  async function analyze(withDeadline: boolean, cacheDir?: string): Promise<{ result: unknown; logs: string[] }> {
    await writeFile(log, '');
    const { stdout } = await run(
      process.execPath,
      [script, dir, withDeadline ? 'deadline' : '-', ...(cacheDir ? [cacheDir] : [])],
      {
        env: { ...process.env, CADENCE_GIT: wrapper },
      },
    );
    const logs = (await readFile(log, 'utf8')).split('\n').filter((line) => / log -z /.test(line));
    return { result: JSON.parse(stdout) as unknown, logs };
  }

  it('lists the commits alone beside the pass, numstat for a job with a deadline, and the same result both ways', async () => {
    const beside = await analyze(false);
    // One history log, with no diff: the files came from the pass's patch.
    expect(beside.logs).to.have.length(1);
    expect(beside.logs[0]).to.not.include('--numstat');
    const timed = await analyze(true);
    // A job with a deadline never waits for the pass to have its verdict: numstat, as before.
    expect(timed.logs).to.have.length(1);
    expect(timed.logs[0]).to.include('--numstat');
    expect(beside.result).to.deep.equal(timed.result);
    // The re-indenting move counts its blank-only changes as numstat does: 30 + 10 + 40 added, 40 deleted.
    const { metrics } = beside.result as { metrics: { additions: number; deletions: number } };
    expect([metrics.additions, metrics.deletions]).to.deep.equal([81, 40]);
  });

  it('after new commits, a kept pass carries its counts forward: still no numstat read, the same result', async () => {
    const cacheDir = path.join(work.path, 'cache');
    const cold = await analyze(false, cacheDir);
    expect(cold.logs).to.have.length(1);
    expect(cold.logs[0]).to.not.include('--numstat');
    await writeFile(path.join(dir, 'src/c.py'), 'late = 1\n  later = 2\n');
    await runGit(dir, ['add', '-A']);
    await runGit(dir, ['-c', 'user.name=Late', '-c', 'user.email=late@example.test', 'commit', '-q', '-m', 'late']);
    const warm = await analyze(false, cacheDir);
    // The pass replayed the new commit alone (its kept file carried forward) and the counts came with it.
    const logs = (await readFile(log, 'utf8')).split('\n');
    expect(
      logs.some((line) => / log .*--topo-order .*\.\./.test(line)),
      'the pass resumed',
    ).to.equal(true);
    expect(warm.logs).to.have.length(1);
    expect(warm.logs[0]).to.not.include('--numstat');
    const timed = await analyze(true);
    expect(timed.logs[0]).to.include('--numstat');
    expect(warm.result).to.deep.equal(timed.result);
  });
});
