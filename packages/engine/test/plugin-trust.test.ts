import { expect } from 'chai';
import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { defaultConfig, toPluginConfigView } from '@cadence-detect/config';
import {
  definePlugin,
  defineStrategy,
  type AnalysisResult,
  type CadencePlugin,
  type JobInfo,
  type ReportOutcome,
} from '@cadence-detect/plugin-sdk';
import { createEngine, silentEngineLogger, type ResultCache } from '../src/index.js';
import { createRepository, humanHistory, makeTempDir, runCadence, type TempDir } from '@cadence-detect/test-support';

/** A strategy whose score is its plugin's `score` option: a result that shows which options made it. */
const scored = definePlugin({
  name: 'scored',
  meta: {
    options: { type: 'object', properties: { score: { type: 'number', default: 0.2 } }, additionalProperties: false },
  },
  apply(hooks) {
    hooks.registerStrategies.tap('scored', (registrar) =>
      registrar.add(
        defineStrategy({
          meta: {
            name: 'scored',
            category: 'test',
            description: 'scores every commit with its option',
            appliesTo: 'repository',
            weight: 1,
          },
          analyze: (context) =>
            context.commits.map((commit) => ({
              commit: commit.hash,
              score: context.options.score as number,
              message: `scored ${String(context.options.score)}`,
            })),
        }),
      ),
    );
  },
});

/** An engine as the host makes one: each plugin with its resolved, frozen options. */
function engineWith(plugins: CadencePlugin[], options: Record<string, Record<string, unknown>>) {
  const config = defaultConfig();
  const loaded = plugins.map((plugin) => ({
    plugin,
    packageName: plugin.name,
    version: '1.0.0',
    source: 'config' as const,
    options: Object.freeze({ score: 0.2, ...options[plugin.name] }),
  }));
  return createEngine({
    config,
    pluginConfig: toPluginConfigView(config),
    logger: silentEngineLogger(),
    plugins: loaded,
  });
}

describe('engine: what plugins are trusted with', function () {
  this.timeout(30_000);
  let work: TempDir;
  let repo: string;
  before(async () => {
    work = await makeTempDir('cadence-plugin-trust-');
    repo = path.join(work.path, 'repo');
    await mkdir(repo);
    await createRepository(repo, humanHistory(4));
  });
  after(() => work.remove());

  it('keys the result cache on every plugin\u2019s resolved options: a changed option computes a new result', async () => {
    const stored = new Map<string, AnalysisResult>();
    const cache: ResultCache = { get: (key) => stored.get(key), set: (key, result) => void stored.set(key, result) };
    const analyze = (score: number) =>
      engineWith([scored], { scored: { score } }).analyze(
        { kind: 'repository', url: repo, branch: null, thresholds: {} },
        { network: null, allowLocalPaths: true, cache },
      );
    const first = await analyze(0.2);
    // Let the cache write (not awaited by the analysis) land.
    await new Promise((resolve) => setImmediate(resolve));
    expect(stored.size).to.equal(1);
    expect((await analyze(0.2)).detections).to.deep.equal(first.detections);
    const changed = await analyze(0.9);
    expect(changed.detections.map((d) => d.message)).to.include('scored 0.9');
    expect(first.detections.map((d) => d.message)).to.include('scored 0.2');
  });

  it('keys the result cache on a plugin\u2019s data files: a new model computes a new result', async () => {
    const dir = await mkdtemp(path.join(work.path, 'model-'));
    const model = path.join(dir, 'model.json');
    const withModel = definePlugin({ ...scored, name: 'modelled', dataFiles: [new URL(`file://${model}`)] });
    const stored = new Map<string, AnalysisResult>();
    const cache: ResultCache = { get: (key) => stored.get(key), set: (key, result) => void stored.set(key, result) };
    const analyze = () =>
      engineWith([withModel], {}).analyze(
        { kind: 'repository', url: repo, branch: null, thresholds: {} },
        { network: null, allowLocalPaths: true, cache },
      );
    await writeFile(model, '{"weights":[1]}');
    await analyze();
    await new Promise((resolve) => setImmediate(resolve));
    await analyze();
    expect(stored.size).to.equal(1);
    await writeFile(model, '{"weights":[2]}');
    await analyze();
    await new Promise((resolve) => setImmediate(resolve));
    expect(stored.size).to.equal(2);
  });

  it('keeps out of the result cache a result a plugin keeps out (context.keepOutOfCache), and keeps the others', async () => {
    let refuse = true;
    let refinements = 0;
    const refuser = definePlugin({
      name: 'refuser',
      apply: (hooks) =>
        hooks.refineResult.tap('refuser', (result, context) => {
          refinements++;
          if (refuse) context.keepOutOfCache?.('the provider did not answer');
          return result;
        }),
    });
    const stored = new Map<string, AnalysisResult>();
    const cache: ResultCache = { get: (key) => stored.get(key), set: (key, result) => void stored.set(key, result) };
    const analyze = () =>
      engineWith([scored, refuser], {}).analyze(
        { kind: 'repository', url: repo, branch: null, thresholds: {} },
        { network: null, allowLocalPaths: true, cache },
      );
    await analyze();
    await new Promise((resolve) => setImmediate(resolve));
    expect(stored.size, 'kept out').to.equal(0);
    await analyze();
    expect(refinements, 'the second analysis ran again').to.equal(2);
    refuse = false;
    await analyze();
    await new Promise((resolve) => setImmediate(resolve));
    expect(stored.size, 'kept').to.equal(1);
    await analyze();
    expect(refinements, 'the fourth analysis was answered from the cache').to.equal(3);
  });

  it('runs each report tap on its own: a reporter that throws is recorded under its name and the next one still reports', async () => {
    const reached: string[] = [];
    const thrower = definePlugin({
      name: 'first-reporter',
      apply: (hooks) =>
        hooks.report.tapPromise('first-reporter', async () => {
          throw new Error('forge down');
        }),
    });
    const syncThrower = definePlugin({
      name: 'sync-reporter',
      apply: (hooks) =>
        hooks.report.tap('sync-reporter', () => {
          throw new Error('boom');
        }),
    });
    const second = definePlugin({
      name: 'second-reporter',
      apply: (hooks) =>
        hooks.report.tapPromise(
          'second-reporter',
          async (result) =>
            void reached.push(`second saw ${'total_commits' in result ? result.total_commits : 'a page'}`),
        ),
    });
    const outcomes: ReportOutcome[] = [];
    const job: JobInfo = { id: 'job-1', url: null, forge: null, deadline: Date.now() + 60_000 };
    const result = await engineWith([thrower, syncThrower, second], {}).analyze(
      { kind: 'repository', url: repo, branch: null, thresholds: {} },
      { network: null, allowLocalPaths: true, job, onReport: (outcome) => void outcomes.push(outcome) },
    );
    expect(result.source_type).to.equal('git');
    expect(reached).to.deep.equal(['second saw 4']);
    expect(outcomes.map((o) => [o.reporter, o.kind, o.ok, o.error_code])).to.deep.equal([
      ['first-reporter', 'report', false, 'ERR_REPORTER_FAILED'],
      ['sync-reporter', 'report', false, 'ERR_REPORTER_FAILED'],
    ]);
  });

  it('gives no plugin the AI key in the configuration view', () => {
    const config = { ...defaultConfig(), ai: { ...defaultConfig().ai, key: 'sk-user-secret-key-0123456789' } };
    expect(JSON.stringify(toPluginConfigView(config))).to.not.contain('sk-user-secret');
  });

  it('a third-party plugin looking for the user\u2019s AI or forge secrets finds none (the real CLI)', async () => {
    const dir = await mkdtemp(path.join(work.path, 'snoop-'));
    const seen = path.join(dir, 'seen.json');
    await mkdir(path.join(dir, 'snoop'));
    await writeFile(
      path.join(dir, 'snoop', 'package.json'),
      JSON.stringify({
        name: 'snoop',
        version: '1.0.0',
        type: 'module',
        main: 'index.js',
        peerDependencies: { '@cadence-detect/plugin-sdk': '^2.0.0' },
      }),
    );
    await writeFile(
      path.join(dir, 'snoop', 'index.js'),
      [
        "import { appendFileSync } from 'node:fs';",
        `const out = ${JSON.stringify(seen)};`,
        'export default { name: "snoop", apply(hooks, environment) {',
        '  appendFileSync(out, JSON.stringify({ config: environment.config, options: environment.options }) + "\\n");',
        '  hooks.beforeAnalysis.tapPromise("snoop", async (context) => { appendFileSync(out, JSON.stringify({ config: context.config, options: context.options }) + "\\n"); });',
        '} };',
      ].join('\n'),
    );
    await writeFile(path.join(dir, 'cadence.yaml'), 'plugins: [./snoop]\n');
    const env = {
      CADENCE_AI_KEY: 'sk-user-secret-key-0123456789',
      CADENCE_GITHUB_TOKEN: 'ghp_user0secret0token0123456789',
      CADENCE_GITLAB_TOKEN: 'glpat-user-secret-0123456789',
    };
    const run = await runCadence(['analyze', repo, '--json', '--config', path.join(dir, 'cadence.yaml')], {
      cwd: dir,
      env,
    });
    expect(run.code, run.stderr).to.equal(0);
    const text = await readFile(seen, 'utf8');
    expect(text.trim().split('\n')).to.have.length(2);
    for (const secret of Object.values(env)) expect(text).to.not.contain(secret);
  });
});
