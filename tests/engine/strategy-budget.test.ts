import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { promisify } from 'node:util';
import path from 'node:path';
import { defaultConfig, toPluginConfigView } from '@cadence-detect/config';
import { createEngine, silentEngineLogger } from '@cadence-detect/engine';
import { definePlugin, defineStrategy, type RepositoryContext } from '@cadence-detect/plugin-sdk';
import { createRepository, eventually, makeTempDir, runGit, type TempDir } from '@cadence-detect/test-support';

interface AfterBudget {
  readonly reason: string;
  readonly excerpt: 'read' | 'refused';
}

/** A strategy that outlives its budget, then asks for a diff excerpt: what it sees is recorded. */
function overrunner(seen: AfterBudget[]) {
  return definePlugin({
    name: 'overrunner',
    apply(hooks) {
      hooks.registerStrategies.tap('overrunner', (registrar) =>
        registrar.add(
          defineStrategy({
            meta: {
              name: 'overrunner',
              category: 'test',
              description: 'waits past its budget, then reads a diff',
              appliesTo: 'repository',
              weight: 1,
            },
            async analyze(context: RepositoryContext) {
              await new Promise((resolve) => context.signal.addEventListener('abort', resolve, { once: true }));
              const excerpt = await context.diffExcerpt(context.commits[0]!.hash).then(
                () => 'read' as const,
                () => 'refused' as const,
              );
              seen.push({ reason: String((context.signal.reason as Error).message), excerpt });
              return [];
            },
          }),
        ),
      );
    },
  });
}

interface StuckRead {
  pid: number | null;
  outcome: 'read' | 'refused' | null;
}

/** The git processes this test process started whose command line names `word`. */
function childGitNaming(word: string): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
        return parent === process.pid && readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(word);
      } catch {
        return false; // gone meanwhile
      }
    })
    .map(Number);
}

/**
 * A strategy that starts a diff read git cannot finish (the commit's blob is a named pipe nobody
 * writes: git waits on it forever), records that git's process, and waits for the read's outcome.
 */
function stuckReader(commit: string, seen: StuckRead) {
  return definePlugin({
    name: 'stuck-reader',
    apply(hooks) {
      hooks.registerStrategies.tap('stuck-reader', (registrar) =>
        registrar.add(
          defineStrategy({
            meta: {
              name: 'stuck-reader',
              category: 'test',
              description: 'starts a diff read that never ends by itself',
              appliesTo: 'repository',
              weight: 1,
            },
            async analyze(context: RepositoryContext) {
              const read = context.diffExcerpt(commit).then(
                () => 'read' as const,
                () => 'refused' as const,
              );
              const [pid] = await eventually(() => {
                const found = childGitNaming(commit);
                return found.length > 0 && found;
              }, 'the diff read’s git process');
              seen.pid = pid ?? null;
              seen.outcome = await read;
              return [];
            },
          }),
        ),
      );
    },
  });
}

describe('a strategy past its budget (its own signal)', function () {
  this.timeout(60_000);
  let work: TempDir;
  before(async () => {
    work = await makeTempDir('cadence-strategy-budget-');
    await mkdir(path.join(work.path, 'repo'));
    await createRepository(path.join(work.path, 'repo'), [
      { message: 'First', date: Date.UTC(2024, 0, 1) / 1000, addLines: 3 },
    ]);
  });
  after(() => work.remove());

  it('aborts the strategy’s signal at its budget: its diff reads after that start no git', async () => {
    const config = defaultConfig();
    const limited = { ...config, limits: { ...config.limits, strategy_timeout_seconds: 0.3 } };
    const seen: AfterBudget[] = [];
    const result = await createEngine({
      config: limited,
      pluginConfig: toPluginConfigView(limited),
      logger: silentEngineLogger(),
      plugins: [{ plugin: overrunner(seen), packageName: 'overrunner', version: '0.0.0', source: 'config' }],
    }).analyze({ kind: 'repository', url: path.join(work.path, 'repo') }, { network: null, allowLocalPaths: true });
    expect(result.strategy_results.find((r) => r.name === 'overrunner')?.error).to.equal(
      'exceeded its time budget of 300 ms',
    );
    // The strategy goes on after the job has moved past it: its signal told it to stop.
    await eventually(() => seen.length === 1, 'the strategy saw its signal aborted');
    expect(seen).to.deep.equal([{ reason: 'exceeded its time budget of 300 ms', excerpt: 'refused' }]);
  });

  it('stops the git processes the strategy started before its budget ran out', async () => {
    // A commit on a branch of its own (not the analysed one) whose blob object is a named pipe:
    // `git show` of it opens the pipe and waits for a writer that never comes. Only the budget's
    // abort can end that git.
    const repo = path.join(work.path, 'stuck');
    await mkdir(repo);
    await createRepository(repo, [{ message: 'First', date: Date.UTC(2024, 0, 1) / 1000, addLines: 3 }]);
    await runGit(repo, ['checkout', '-q', '-b', 'stuck']);
    await runGit(repo, ['commit', '-q', '--allow-empty', '-m', 'placeholder']);
    const blob = (await runGit(repo, ['hash-object', '-w', '--stdin'], {}, 'a file git will never read\n')).trim();
    await runGit(repo, ['update-index', '--add', '--cacheinfo', `100644,${blob},stuck.txt`]);
    await runGit(repo, ['commit', '-q', '-m', 'Stuck']);
    const stuck = (await runGit(repo, ['rev-parse', 'HEAD'])).trim();
    await runGit(repo, ['checkout', '-q', '-f', 'main']);
    const objectFile = path.join(repo, '.git', 'objects', blob.slice(0, 2), blob.slice(2));
    await rm(objectFile, { force: true });
    await promisify(execFile)('mkfifo', [objectFile]);

    const config = defaultConfig();
    const limited = { ...config, limits: { ...config.limits, strategy_timeout_seconds: 0.5 } };
    const seen: StuckRead = { pid: null, outcome: null };
    try {
      const result = await createEngine({
        config: limited,
        pluginConfig: toPluginConfigView(limited),
        logger: silentEngineLogger(),
        plugins: [
          { plugin: stuckReader(stuck, seen), packageName: 'stuck-reader', version: '0.0.0', source: 'config' },
        ],
      }).analyze({ kind: 'repository', url: repo, branch: 'main' }, { network: null, allowLocalPaths: true });
      expect(result.strategy_results.find((r) => r.name === 'stuck-reader')?.error).to.equal(
        'exceeded its time budget of 500 ms',
      );
      const pid = await eventually(() => seen.pid ?? false, 'the strategy to find its git process');
      // Without the budget's abort reaching the read, this git would wait on its pipe for ever.
      await eventually(() => !existsSync(`/proc/${pid}`), `git (pid ${pid}) to stop`, { timeoutMs: 10_000 });
      await eventually(() => seen.outcome, 'the stopped read’s outcome');
      expect(seen.outcome).to.equal('refused');
    } finally {
      for (const pid of childGitNaming(stuck)) process.kill(pid, 'SIGKILL');
    }
  });
});
