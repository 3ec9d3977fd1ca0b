import { expect } from 'chai';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parse } from 'yaml';
import { loadConfig, toPluginConfigView } from '@cadence-detect/config';
import { makeTempDir, runCadence, type TempDir } from '@cadence-detect/test-support';
import { loadHostPlugins, loadPluginModules } from '../src/plugins.js';

/** The `ai:` section is the AI plugin's own: its options, its environment names, its secrets. */
describe('the AI plugin\u2019s settings: the ai: section, as its own options', function () {
  this.timeout(60_000);
  let work: TempDir;
  before(async () => {
    work = await makeTempDir('cadence-ai-settings-');
  });
  after(() => work.remove());

  async function loaded(file: string, env: NodeJS.ProcessEnv) {
    const configPath = path.join(work.path, 'chosen.yaml');
    await writeFile(configPath, file);
    const { config } = await loadConfig({ cwd: work.path, env, configPath });
    return loadHostPlugins({ config, env, pluginBase: null });
  }

  it('gives the section, the environment (CADENCE_AI_* over the interface\u2019s bare names) and the defaults to the AI plugin alone', async () => {
    const { plugins, config, secrets } = await loaded('ai:\n  enabled: true\n  model: m-1\n  retry_count: 5\n', {
      CADENCE_AI_KEY: 'sk-ai-settings-test',
      BATCH_SIZE: '3',
      CADENCE_AI_RETRY_COUNT: '1',
      RETRY_COUNT: '2',
      RETRY_BACKOFF_INITIAL: '250ms',
    });
    const ai = plugins.find((p) => p.plugin.name === 'ai-assist')!;
    expect(ai.options).to.deep.include({
      enabled: true,
      key: 'sk-ai-settings-test',
      model: 'm-1',
      batch_size: 3,
      retry_count: 1,
      retry_backoff_initial: '250ms',
      timeout_seconds: 30,
      provider: 'openai',
    });
    expect(secrets).to.include('sk-ai-settings-test');
    // No other plugin's options and no plugin's view hold any of it.
    for (const other of plugins.filter((p) => p !== ai))
      expect(JSON.stringify(other.options ?? {})).to.not.contain('sk-ai');
    expect(JSON.stringify(toPluginConfigView(config)))
      .to.not.contain('sk-ai')
      .and.not.contain('m-1');
  });

  it('refuses a key the plugin does not know, naming it (exit 2 from the CLI)', async () => {
    const configPath = path.join(work.path, 'typo.yaml');
    await writeFile(configPath, 'ai:\n  enabeld: true\n');
    const run = await runCadence(['plugins', '--config', configPath], { cwd: work.path });
    expect(run.code).to.equal(2);
    expect(run.stderr).to.contain('enabeld');
  });

  it('cadence config prints the section with the plugin\u2019s defaults, the key masked', async () => {
    const configPath = path.join(work.path, 'shown.yaml');
    await writeFile(configPath, 'ai:\n  provider: anthropic\n');
    const run = await runCadence(['config', '--config', configPath], {
      cwd: work.path,
      env: { CADENCE_AI_KEY: 'sk-printed-never', BATCH_SIZE: '4' },
    });
    expect(run.code, run.stderr).to.equal(0);
    expect(run.stdout).to.not.contain('sk-printed-never');
    const printed = parse(run.stdout) as { ai: Record<string, unknown> };
    expect(printed.ai).to.deep.include({
      provider: 'anthropic',
      key: '****',
      batch_size: 4,
      retry_backoff_initial: '1s',
    });
  });
  /** A third party's plugin in its own folder, named by a chosen file's `plugins:`. */
  async function rogue(name: string, meta: Record<string, unknown>): Promise<string> {
    const dir = path.join(work.path, name);
    await mkdir(dir, { recursive: true });
    await writeFile(
      path.join(dir, 'package.json'),
      JSON.stringify({ name, version: '1.0.0', type: 'module', main: 'index.js' }),
    );
    await writeFile(
      path.join(dir, 'index.js'),
      `export default { name: ${JSON.stringify(name)}, apiVersion: '^2.0.0', meta: ${JSON.stringify(meta)}, apply() {} };\n`,
    );
    return dir;
  }

  it('lets no other plugin claim the ai: section (the AI key is in it)', async () => {
    const dir = await rogue('cadence-plugin-takes-ai', { configKey: 'ai' });
    const configPath = path.join(work.path, 'rogue.yaml');
    await writeFile(configPath, `plugins: [${JSON.stringify(dir)}]\nai:\n  key: sk-not-yours\n`);
    const { config } = await loadConfig({ cwd: work.path, env: {}, configPath });
    const failure = await loadHostPlugins({ config, env: {}, pluginBase: work.path }).then(
      () => null,
      (error: unknown) => error as Error,
    );
    expect(failure?.message).to.contain('meta.configKey "ai" is not its own section');
  });

  it('reads an option schema\u2019s env names only for the AI plugin\u2019s section: another plugin\u2019s cannot reach a host secret', async () => {
    const dir = await rogue('cadence-plugin-reads-env', {
      options: { type: 'object', properties: { x: { type: 'string', env: ['CADENCE_API_TOKEN', 'HOME_SECRET'] } } },
    });
    const configPath = path.join(work.path, 'env.yaml');
    await writeFile(configPath, `plugins: [${JSON.stringify(dir)}]\n`);
    const env = { CADENCE_API_TOKEN: 'tok-host-secret', HOME_SECRET: 'plain-secret' };
    const { config } = await loadConfig({ cwd: work.path, env, configPath });
    const { config: completed } = await loadPluginModules({ config, env, pluginBase: work.path });
    expect(JSON.stringify(completed.plugin_options)).to.not.contain('tok-host-secret').and.not.contain('plain-secret');
    // Its own names still work.
    const own = await loadPluginModules({
      config,
      env: { CADENCE_PLUGIN_CADENCE_PLUGIN_READS_ENV_X: 'mine' },
      pluginBase: work.path,
    });
    expect(own.config.plugin_options['cadence-plugin-reads-env']).to.deep.equal({ x: 'mine' });
  });
});
