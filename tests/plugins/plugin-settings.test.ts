import { expect } from 'chai';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parse, stringify } from 'yaml';
import {
  createRepository,
  humanHistory,
  makeTempDir,
  runCadence,
  startCadenceServer,
  type TempDir,
} from '@cadence-detect/test-support';

/**
 * Plugins own their settings (plugin API 1.11): two third-party packages outside the workspace, a
 * forge plugin (`forges.acme`) and a strategy that takes an API key (`plugin_options.key-check`),
 * configured from a chosen file and from the environment, their secrets masked everywhere.
 */
const FORGE_TOKEN = 'acme-token-0f3c9e71d2b84a56';
const STRATEGY_KEY = 'sk-key-check-6a1d0e9f8b7c2d34';

const FORGE_PLUGIN = `
export default {
  name: 'acme-forge',
  apiVersion: '^2.0.0',
  meta: {
    options: {
      type: 'object',
      properties: {
        token: { anyOf: [{ type: 'string' }, { type: 'null' }], default: null, secret: true },
        api_url: { type: 'string', default: 'https://acme.invalid/api' },
        fail_on: { type: 'string', default: 'never' },
      },
      additionalProperties: false,
    },
  },
  forge: {
    name: 'acme',
    intake({ options, logger }) {
      // A careless plugin: its token in a message. The host's logger must scrub it.
      logger.error('acme intake built with ' + options.token);
      return {
        verify() {}, // the test forge signs nothing: what is tested is where its settings come from
        parse() {
          return { kind: 'ignored-event', event: options.api_url + ' token=' + (options.token ? 'set' : 'unset') + ' fail_on=' + options.fail_on };
        },
      };
    },
  },
  apply() {},
};
`;

const STRATEGY_PLUGIN = `
const strategy = {
  meta: { name: 'key-check', category: 'test', description: 'Says whether it has a key.', appliesTo: 'repository', weight: 1 },
  analyze(context) {
    const last = context.commits[context.commits.length - 1];
    const key = context.options.api_key;
    return [{ commit: last.hash, score: 0.4, message: 'key ' + (key ? 'of ' + key.length + ' characters' : 'missing') + ', region ' + context.options.region }];
  },
};
export default {
  name: 'key-check',
  apiVersion: '^2.0.0',
  meta: {
    configKey: 'plugin_options.key-check',
    options: {
      type: 'object',
      properties: {
        api_key: { type: 'string', secret: true },
        region: { type: 'string', default: 'eu' },
      },
      additionalProperties: false,
    },
  },
  apply(hooks, environment) {
    environment.logger.error('key-check starting with ' + environment.options.api_key);
    hooks.registerStrategies.tap('key-check', (registrar) => registrar.add(strategy));
  },
};
`;

/** A plugin that claims the server's own section. */
const GREEDY_PLUGIN = `export default { name: 'greedy', apiVersion: '^2.0.0', meta: { configKey: 'webhook', options: { type: 'object', properties: { secret: { type: 'string' } } } }, apply() {} };`;

async function writePackage(dir: string, name: string, source: string): Promise<void> {
  await mkdir(dir, { recursive: true });
  await writeFile(
    path.join(dir, 'package.json'),
    JSON.stringify({ name, version: '1.0.0', type: 'module', main: 'index.js', keywords: ['cadence-plugin'] }),
  );
  await writeFile(path.join(dir, 'index.js'), source);
}

interface Report {
  detections: Array<{ strategy: string; message: string }>;
}

describe('plugins own their settings (plugin API 1.11): a third-party forge and a strategy with a secret', function () {
  this.timeout(90_000);
  let work: TempDir;
  let repo: string;
  let configFile: string;

  before(async () => {
    work = await makeTempDir('cadence-plugin-settings-');
    await writePackage(path.join(work.path, 'plugins', 'acme-forge'), 'acme-forge', FORGE_PLUGIN);
    await writePackage(path.join(work.path, 'plugins', 'key-check'), 'key-check', STRATEGY_PLUGIN);
    await writePackage(path.join(work.path, 'plugins', 'greedy'), 'greedy', GREEDY_PLUGIN);
    repo = path.join(work.path, 'repo');
    await mkdir(repo);
    await createRepository(repo, humanHistory(3));
    configFile = path.join(work.path, 'chosen.yaml');
    await writeFile(
      configFile,
      stringify({
        plugins: ['./plugins/acme-forge', './plugins/key-check'],
        forges: { acme: { api_url: 'https://acme.example.test/api' } },
        plugin_options: { 'key-check': { region: 'us' } },
      }),
    );
  });
  after(async () => {
    await work?.remove();
  });

  const env = { CADENCE_ACME_TOKEN: FORGE_TOKEN, CADENCE_PLUGIN_KEY_CHECK_API_KEY: STRATEGY_KEY };

  it('cadence config shows both sections, with the values from the file and the environment, secrets masked', async () => {
    const run = await runCadence(['config', '--config', configFile], { cwd: repo, env });
    expect(run.code, run.stderr).to.equal(0);
    const printed = parse(run.stdout) as { forges: Record<string, unknown>; plugin_options: Record<string, unknown> };
    // The forge's section as its plugin gets it: its defaults filled (fail_on comes from report.fail_on).
    expect(printed.forges.acme).to.deep.equal({ token: '****', api_url: 'https://acme.example.test/api' });
    expect(printed.plugin_options['key-check']).to.deep.equal({ region: 'us', api_key: '****' });
    expect(run.stdout + run.stderr)
      .to.not.contain(FORGE_TOKEN)
      .and.not.contain(STRATEGY_KEY);
  });

  it('cadence config masks every value of a section whose plugin is not loaded', async () => {
    const file = path.join(work.path, 'unloaded.yaml');
    await writeFile(
      file,
      stringify({ plugin_options: { 'not-installed': { api_key: 'value-of-a-plugin-never-loaded', depth: 3 } } }),
    );
    const run = await runCadence(['config', '--config', file], { cwd: repo, env: {} });
    expect(run.stdout).to.not.contain('value-of-a-plugin-never-loaded');
    const printed = parse(run.stdout) as { plugin_options: Record<string, unknown> };
    expect(printed.plugin_options['not-installed']).to.deep.equal({ api_key: '****', depth: '****' });
  });

  it('cadence analyze runs the strategy with its key from the environment; no output or log line holds it', async () => {
    const run = await runCadence(['analyze', '.', '--json', '--config', configFile], { cwd: repo, env });
    expect(run.code, run.stderr).to.equal(0);
    const report = JSON.parse(run.stdout) as Report;
    const detection = report.detections.find((d) => d.strategy === 'key-check');
    expect(detection?.message).to.equal(`key of ${STRATEGY_KEY.length} characters, region us`);
    expect(run.stderr).to.contain('key-check starting with [redacted]');
    expect(run.stdout + run.stderr)
      .to.not.contain(STRATEGY_KEY)
      .and.not.contain(FORGE_TOKEN);
  });

  it('the server serves the third-party forge with its settings from the file and its token from the environment, never logging the token', async () => {
    const server = await startCadenceServer({
      cwd: work.path,
      config: {
        plugins: ['./plugins/acme-forge', './plugins/key-check'],
        forges: { acme: { api_url: 'https://acme.example.test/api' } },
        report: { fail_on: 'suspicious' },
      },
      env,
    });
    try {
      const { status, body } = await server.json<{ ignored: boolean; event: string }>('/webhooks/acme', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      });
      expect(status).to.equal(200);
      expect(body).to.deep.equal({
        ignored: true,
        event: 'https://acme.example.test/api token=set fail_on=suspicious',
      });
      const logged = JSON.stringify(server.logs) + server.stderr();
      expect(logged).to.contain('acme intake built with [redacted]');
      expect(logged).to.not.contain(FORGE_TOKEN).and.not.contain(STRATEGY_KEY);
    } finally {
      await server.stop();
    }
  });

  it('refuses a forges.<name> section that no loaded plugin brings, with exit 2', async () => {
    const file = path.join(work.path, 'typo.yaml');
    await writeFile(file, stringify({ forges: { acmee: { token: 'x' } } }));
    const run = await runCadence(['analyze', '.', '--config', file], { cwd: repo, env: {} });
    expect(run.code).to.equal(2);
    expect(run.stderr).to.contain('forges.acmee: no loaded plugin brings the forge acmee');
  });

  it('refuses a plugin whose meta.configKey names a section that is not its own', async () => {
    const file = path.join(work.path, 'greedy.yaml');
    await writeFile(file, stringify({ plugins: ['./plugins/greedy'] }));
    const run = await runCadence(['analyze', '.', '--config', file], { cwd: repo, env: {} });
    expect(run.code).to.equal(2);
    expect(run.stderr).to.contain('its meta.configKey "webhook" is not its own section (plugin_options.greedy)');
  });
});
