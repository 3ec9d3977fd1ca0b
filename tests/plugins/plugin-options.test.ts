import { expect } from 'chai';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { definePlugin, defineStrategy } from '@cadence-detect/plugin-sdk';
import { makeCommits, runPlugin } from '@cadence-detect/plugin-testkit';
import { createRepository, humanHistory, makeTempDir, runCadence, type TempDir } from '@cadence-detect/test-support';

/** A plugin package that declares an options schema and whose strategy reports what it was given. */
const PLUGIN_SOURCE = `
const strategy = {
  meta: { name: 'reports-options', category: 'test', description: 'Echoes its options.', appliesTo: 'repository', weight: 1 },
  analyze(context) {
    const last = context.commits[context.commits.length - 1];
    return [{ commit: last.hash, score: 0.5, message: 'options ' + JSON.stringify(context.options) + ' frozen=' + Object.isFrozen(context.options) }];
  },
};
export default {
  name: 'echo-options',
  apiVersion: '^2.0.0',
  meta: {
    options: {
      type: 'object',
      properties: { threshold: { type: 'integer', minimum: 1, default: 5 }, label: { type: 'string', default: 'x' } },
      additionalProperties: false,
    },
  },
  apply(hooks, environment) {
    environment.logger.error('echo-options applied', { threshold: environment.options.threshold });
    hooks.registerStrategies.tap('echo-options', (registrar) => registrar.add(strategy));
  },
};
`;

interface Report {
  detections: Array<{ strategy: string; message: string }>;
}

describe('per-plugin options (plugin API 1.1)', function () {
  this.timeout(60_000);
  let dir: TempDir;
  let repo: string;

  before(async () => {
    dir = await makeTempDir('cadence-options-');
    const plugin = path.join(dir.path, 'echo-options');
    await mkdir(plugin);
    await writeFile(
      path.join(plugin, 'package.json'),
      JSON.stringify({ name: 'echo-options', version: '1.0.0', type: 'module', main: 'index.js' }),
    );
    await writeFile(path.join(plugin, 'index.js'), PLUGIN_SOURCE);
    repo = path.join(dir.path, 'repo');
    await mkdir(repo);
    await createRepository(repo, humanHistory(3));
  });
  after(async () => {
    await dir?.remove();
  });

  async function analyze(configYaml: string) {
    const file = path.join(dir.path, `config-${Math.random().toString(36).slice(2)}.yaml`);
    await writeFile(file, configYaml);
    return runCadence(['analyze', '.', '--json', '--config', file], { cwd: repo });
  }
  const echoed = (stdout: string): string =>
    (JSON.parse(stdout) as Report).detections.find((d) => d.strategy === 'reports-options')?.message ?? '';

  it('gives a strategy its plugin\u2019s options with the schema\u2019s defaults, frozen', async () => {
    const run = await analyze(`plugins: [${JSON.stringify(path.join(dir.path, 'echo-options'))}]\n`);
    expect(run.code, run.stderr).to.equal(0);
    expect(echoed(run.stdout)).to.equal('options {"threshold":5,"label":"x"} frozen=true');
    // Its own child logger: the log line names the plugin as its component.
    const line = run.stderr.split('\n').find((l) => l.includes('echo-options applied'));
    expect(JSON.parse(line ?? '{}')).to.include({
      component: 'echo-options',
      message: 'echo-options applied',
      threshold: 5,
    });
  });

  it('reads options from plugins: [{ name, options }] over plugin_options.<name>', async () => {
    const run = await analyze(
      `plugins:\n  - name: ${JSON.stringify(path.join(dir.path, 'echo-options'))}\n    options: { threshold: 3 }\nplugin_options:\n  echo-options: { threshold: 9, label: from-section }\n`,
    );
    expect(run.code, run.stderr).to.equal(0);
    expect(echoed(run.stdout)).to.equal('options {"threshold":3,"label":"from-section"} frozen=true');
  });

  for (const [label, yaml, expected] of [
    [
      'a wrong type',
      'plugin_options:\n  echo-options: { threshold: many }\n',
      /plugin_options\.echo-options\.threshold/,
    ],
    [
      'below the minimum',
      'plugin_options:\n  echo-options: { threshold: 0 }\n',
      /plugin_options\.echo-options\.threshold/,
    ],
    ['an unknown option', 'plugin_options:\n  echo-options: { colour: red }\n', /plugin_options\.echo-options/],
    [
      'options for a plugin that is not loaded',
      'plugin_options:\n  echo-optoins: { threshold: 2 }\n',
      /plugin_options\.echo-optoins: no loaded plugin/,
    ],
    ['options for a plugin that takes none', 'plugin_options:\n  size: { threshold: 2 }\n', /takes no options/],
    [
      'an AI option out of range (the ai: section goes through the same mechanism)',
      'plugin_options:\n  ai-assist: { batch_size: 0 }\n',
      /plugin_options\.ai-assist\.batch_size/,
    ],
  ] as const) {
    it(`refuses ${label} at start-up with exit 2, naming the plugin and the key`, async () => {
      const run = await analyze(`plugins: [${JSON.stringify(path.join(dir.path, 'echo-options'))}]\n${yaml}`);
      expect(run.code, run.stdout).to.equal(2);
      expect(run.stderr).to.match(expected);
      expect(run.stderr.trim().split('\n')).to.have.length(1);
    });
  }
});

describe('the testkit runs a plugin as the host would', () => {
  const echo = defineStrategy({
    meta: { name: 'echo', category: 'test', description: 'Echoes its options.', appliesTo: 'repository', weight: 1 },
    analyze: (context) => [{ commit: context.commits[0]!.hash, score: 0.5, message: JSON.stringify(context.options) }],
  });
  const plugin = (apiVersion?: string) =>
    definePlugin({
      name: 'echo-plugin',
      ...(apiVersion ? { apiVersion } : {}),
      meta: {
        options: {
          type: 'object',
          properties: { level: { type: 'integer', default: 1 } },
          additionalProperties: false,
        },
      },
      apply: (hooks) => hooks.registerStrategies.tap('echo-plugin', (registrar) => registrar.add(echo)),
    });
  const commits = makeCommits([{ at: 1_600_000_000 }]);

  it('passes options through the plugin\u2019s schema (defaults, refusals)', async () => {
    expect((await runPlugin(plugin(), { commits })).detectionsOf('echo')[0]!.message).to.equal('{"level":1}');
    expect(
      (await runPlugin(plugin(), { commits }, { options: { level: 4 } })).detectionsOf('echo')[0]!.message,
    ).to.equal('{"level":4}');
    const refused = await runPlugin(plugin(), { commits }, { options: { level: 'high' } }).catch(
      (error: Error) => error,
    );
    expect(refused)
      .to.be.instanceOf(Error)
      .with.property('message')
      .that.matches(/plugin_options\.echo-plugin\.level/);
  });

  it('refuses a plugin built for another plugin API version', async () => {
    const refused = await runPlugin(plugin('^3.0.0'), { commits }).catch((error: Error) => error);
    expect(refused).to.be.instanceOf(Error).with.property('message').that.contains('targets plugin API ^3.0.0');
  });
});
