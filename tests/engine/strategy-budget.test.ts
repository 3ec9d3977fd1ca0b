import { expect } from 'chai';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { defaultConfig, toPluginConfigView } from '@cadence-detect/config';
import { createEngine, silentEngineLogger } from '@cadence-detect/engine';
import { definePlugin, defineStrategy, type RepositoryContext } from '@cadence-detect/plugin-sdk';
import { createRepository, eventually, makeTempDir, type TempDir } from '@cadence-detect/test-support';

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
});
