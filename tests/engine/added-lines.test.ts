import { expect } from 'chai';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { defaultConfig, toPluginConfigView } from '@cadence-detect/config';
import { createEngine, silentEngineLogger } from '@cadence-detect/engine';
import {
  definePlugin,
  defineStrategy,
  type AddedLinesReader,
  type RepositoryContext,
  type RepositoryResult,
  type Strategy,
} from '@cadence-detect/plugin-sdk';
import { createRepository, makeTempDir, type FixtureRepository, type TempDir } from '@cadence-detect/test-support';

const T0 = Date.UTC(2024, 0, 1) / 1000;
const HOUR = 3600;

/** Registers the given strategies, in order, as one plugin. */
function pluginOf(...strategies: Strategy[]) {
  return {
    plugin: definePlugin({
      name: 'readers',
      apply(hooks) {
        hooks.registerStrategies.tap('readers', (registrar) => {
          for (const strategy of strategies) registrar.add(strategy);
        });
      },
    }),
    packageName: 'readers',
    version: '0.0.0',
    source: 'config' as const,
  };
}

/** A strategy that keeps what its context held: its readings, if any. */
function readingStrategy(
  name: string,
  seen: { readings?: ReadonlyMap<string, number> | undefined }[],
  reader?: AddedLinesReader,
) {
  return defineStrategy({
    meta: { name, category: 'test', description: 'keeps its readings', appliesTo: 'repository', weight: 1 },
    ...(reader ? { addedLines: reader } : {}),
    analyze(context: RepositoryContext) {
      seen.push({ readings: context.addedLineReadings });
      return [];
    },
  });
}

const todoCounter: AddedLinesReader = {
  key: 'todo@1',
  read: (lines) => lines.filter((line) => line.text.includes('TODO')).length,
};

describe('strategies that read added lines', function () {
  this.timeout(60_000);
  let work: TempDir;
  let repo: FixtureRepository;
  before(async () => {
    work = await makeTempDir('cadence-added-lines-engine-');
    await mkdir(path.join(work.path, 'repo'));
    repo = await createRepository(path.join(work.path, 'repo'), [
      { message: 'Start', date: T0, files: { 'src/a.ts': 'one\n// TODO two\n' } },
      { message: 'More', date: T0 + HOUR, files: { 'src/b.ts': '// TODO a\n// TODO b\n// TODO c\n' } },
      { message: 'Plain', date: T0 + 2 * HOUR, files: { 'src/c.ts': 'plain\n' } },
    ]);
  });
  after(() => work.remove());

  const analyze = (
    strategies: Strategy[],
    lines = true,
    scope: { range?: { before: string; after: string }; since?: string } = {},
  ) => {
    const config = defaultConfig();
    return createEngine({
      config,
      pluginConfig: toPluginConfigView(config),
      logger: silentEngineLogger(),
      plugins: [pluginOf(...strategies)],
    }).analyze(
      { kind: 'repository', url: repo.dir, cache: false, ...(lines ? {} : { lines: false }), ...scope },
      { network: null, allowLocalPaths: true },
    );
  };

  it('hands a strategy its reader\u2019s number per commit, read in the line pass; the results keep the registration order', async () => {
    const seen: { readings?: ReadonlyMap<string, number> | undefined }[] = [];
    const others: { readings?: ReadonlyMap<string, number> | undefined }[] = [];
    const result = await analyze([readingStrategy('reads-lines', seen, todoCounter), readingStrategy('plain', others)]);
    expect(seen).to.have.length(1);
    expect(Object.fromEntries(seen[0]!.readings!)).to.deep.equal({
      [repo.hashes[0]!]: 1,
      [repo.hashes[1]!]: 3,
      [repo.hashes[2]!]: 0,
    });
    expect(others).to.deep.equal([{ readings: undefined }]);
    expect(
      result.strategy_results.map((r) => r.name).filter((n) => n === 'reads-lines' || n === 'plain'),
    ).to.deep.equal(['reads-lines', 'plain']);
  });

  it('runs the strategy without readings when lines are off, or when its reader throws', async () => {
    const seen: { readings?: ReadonlyMap<string, number> | undefined }[] = [];
    await analyze([readingStrategy('reads-lines', seen, todoCounter)], false);
    const broken: AddedLinesReader = {
      key: 'broken@1',
      read: () => {
        throw new Error('reader broke');
      },
    };
    const result = (await analyze([readingStrategy('reads-lines', seen, broken)])) as RepositoryResult;
    expect(seen).to.deep.equal([{ readings: undefined }, { readings: undefined }]);
    expect(result.strategy_results.find((r) => r.name === 'reads-lines')?.error).to.equal(null);
    // The lines themselves are still counted.
    expect(result.lines_skipped).to.equal(undefined);
    expect(result.lines).to.not.equal(undefined);
  });

  it('reads a pushed range\u2019s own commits for the reader (as cadence ci does); --since reads none', async () => {
    const seen: { readings?: ReadonlyMap<string, number> | undefined }[] = [];
    await analyze([readingStrategy('reads-lines', seen, todoCounter)], true, {
      range: { before: repo.hashes[0]!, after: repo.hashes[2]! },
    });
    // The range's commits alone, with the numbers the whole history's pass gives them.
    expect(Object.fromEntries(seen[0]!.readings!)).to.deep.equal({ [repo.hashes[1]!]: 3, [repo.hashes[2]!]: 0 });
    await analyze([readingStrategy('reads-lines', seen, todoCounter)], true, { since: '2023-12-31T00:00:00Z' });
    expect(seen[1]).to.deep.equal({ readings: undefined });
  });

  it('refuses a strategy whose reader is malformed, naming what is wrong', () => {
    const config = defaultConfig();
    const make =
      (addedLines: unknown, appliesTo: 'repository' | 'website' = 'repository') =>
      () =>
        createEngine({
          config,
          pluginConfig: toPluginConfigView(config),
          logger: silentEngineLogger(),
          plugins: [
            pluginOf({
              meta: { name: 'bad-reader', category: 'test', description: 'x', appliesTo, weight: 1 },
              addedLines,
              analyze: () => [],
            } as unknown as Strategy),
          ],
        });
    expect(make({ key: '', read: () => 0 })).to.throw(/addedLines\.key is not a non-empty string/);
    expect(make({ key: 'k' })).to.throw(/addedLines\.read is not a function/);
    expect(make('reader')).to.throw(/addedLines is not an object/);
    expect(make({ key: 'k', read: () => 0 }, 'website')).to.throw(/addedLines is for repository strategies/);
    // Two readers under one key would write into one set of kept numbers.
    expect(() =>
      createEngine({
        config,
        pluginConfig: toPluginConfigView(config),
        logger: silentEngineLogger(),
        plugins: [pluginOf(readingStrategy('first', [], todoCounter), readingStrategy('second', [], todoCounter))],
      }),
    ).to.throw(/"second" reads added lines under the key "todo@1" that "first" already uses/);
  });

  it('keeps the numbers with the line pass: the next analysis reads only the new commit\u2019s lines', async () => {
    const dir = path.join(work.path, 'kept');
    await mkdir(dir);
    const kept = await createRepository(dir, [
      { message: 'One', date: T0, files: { 'a.ts': '// TODO one\n' } },
      { message: 'Two', date: T0 + HOUR, files: { 'b.ts': 'two\n' } },
    ]);
    const config = {
      ...defaultConfig(),
      cache: { ...defaultConfig().cache, repositories_dir: path.join(work.path, 'cache') },
    };
    let calls = 0;
    const counting: AddedLinesReader = {
      key: 'todo@counting',
      read: (lines) => {
        calls++;
        return todoCounter.read(lines);
      },
    };
    const seen: { readings?: ReadonlyMap<string, number> | undefined }[] = [];
    const run = () =>
      createEngine({
        config,
        pluginConfig: toPluginConfigView(config),
        logger: silentEngineLogger(),
        plugins: [pluginOf(readingStrategy('reads-lines', seen, counting))],
      }).analyze({ kind: 'repository', url: dir }, { network: null, allowLocalPaths: true });
    await run();
    expect(calls).to.equal(2);
    await kept.commit({ message: 'Three', date: T0 + 2 * HOUR, files: { 'c.ts': '// TODO three\n// TODO four\n' } });
    calls = 0;
    await run();
    expect(calls).to.equal(1);
    expect(Object.fromEntries(seen[1]!.readings!)).to.deep.equal({
      [kept.hashes[0]!]: 1,
      [kept.hashes[1]!]: 0,
      [kept.hashes[2]!]: 2,
    });
  });
});
