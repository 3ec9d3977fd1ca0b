import { expect } from 'chai';
import { Type } from '@cadence-detect/plugin-sdk/typebox';
import {
  applyPluginEnvironment,
  defaultConfig,
  loadConfig,
  maskSecrets,
  MASK,
  pluginEnvironmentNames,
  pluginSecretValues,
  pluginSections,
  unownedForgeSections,
  type CadenceConfig,
} from '../src/index.js';

const GITEA = {
  name: 'gitea',
  forge: { name: 'gitea' },
  meta: {
    options: Type.Object({
      token: Type.Union([Type.String(), Type.Null()], { default: null, secret: true }),
      api_url: Type.String({ default: 'https://gitea.example/api/v1' }),
      verify_tls: Type.Boolean({ default: true }),
      git_hosts: Type.Array(Type.String(), { default: [] }),
    }),
  },
};
const SCANNER = {
  name: '@acme/scanner.v2',
  meta: {
    options: {
      type: 'object',
      properties: {
        api_key: { type: 'string', secret: true },
        limit: { type: 'integer' },
        auth: { type: 'object', properties: { password: { type: 'string', secret: true } } },
      },
    },
  },
};

function withSections(extra: Record<string, unknown>): CadenceConfig {
  return { ...defaultConfig(), ...extra } as CadenceConfig;
}

describe('plugin sections: built from the loaded plugins', () => {
  it('names each option in the environment after its section', () => {
    expect(pluginEnvironmentNames('forges.gitea', 'token')).to.deep.equal([
      'CADENCE_GITEA_TOKEN',
      'CADENCE_FORGES_GITEA_TOKEN',
    ]);
    expect(pluginEnvironmentNames('plugin_options.file-drops', 'api_key')).to.deep.equal([
      'CADENCE_PLUGIN_FILE_DROPS_API_KEY',
    ]);
    expect(pluginEnvironmentNames('plugin_options.@acme/scanner.v2', 'maxItems')).to.deep.equal([
      'CADENCE_PLUGIN_ACME_SCANNER_V2_MAX_ITEMS',
    ]);
  });

  it('finds the secret options of typebox and plain schemas, nested ones included', () => {
    const [gitea, scanner] = pluginSections([GITEA, SCANNER]);
    expect(gitea).to.include({ configKey: 'forges.gitea' });
    expect(gitea!.secrets).to.deep.equal(['token']);
    expect(scanner).to.include({ configKey: 'plugin_options.@acme/scanner.v2' });
    expect(scanner!.secrets).to.deep.equal(['api_key', 'auth.password']);
  });

  it('reads options from the environment by their type, over files, the first name set winning', () => {
    const sections = pluginSections([GITEA, SCANNER]);
    const config = withSections({
      forges: { request_drafts: false, gitea: { api_url: 'https://from-file/api/v1', token: 'from-file-token' } },
    });
    const next = applyPluginEnvironment(config, sections, {
      CADENCE_FORGES_GITEA_TOKEN: 'long-name-token',
      CADENCE_GITEA_TOKEN: 'short-name-token',
      CADENCE_GITEA_VERIFY_TLS: 'false',
      CADENCE_GITEA_GIT_HOSTS: 'a.example, b.example',
      CADENCE_PLUGIN_ACME_SCANNER_V2_LIMIT: '12',
    });
    expect(next.forges.gitea).to.deep.equal({
      api_url: 'https://from-file/api/v1',
      token: 'short-name-token',
      verify_tls: false,
      git_hosts: ['a.example', 'b.example'],
    });
    expect(next.plugin_options['@acme/scanner.v2']).to.deep.equal({ limit: 12 });
    expect(config.forges.gitea).to.deep.equal({ api_url: 'https://from-file/api/v1', token: 'from-file-token' });
    expect(() => applyPluginEnvironment(config, sections, { CADENCE_PLUGIN_ACME_SCANNER_V2_LIMIT: 'twelve' })).to.throw(
      /plugin_options.@acme\/scanner.v2.limit \(from the environment variable CADENCE_PLUGIN_ACME_SCANNER_V2_LIMIT\) must be an integer/,
    );
  });

  it('masks the loaded plugins\u2019 secrets and every value of a section nobody owns, and gives them to the logger', () => {
    const sections = pluginSections([GITEA, SCANNER]);
    const config = withSections({
      forges: { request_drafts: true, gitea: { token: 'gitea-secret-token', api_url: 'https://g/api/v1' } },
      plugin_options: {
        '@acme/scanner.v2': { api_key: 'scanner-secret', limit: 3, auth: { password: 'nested-secret' } },
        orphan: { anything: 'orphan-value', list: ['orphan-item'] },
      },
    });
    const masked = maskSecrets(config, sections);
    expect(masked.forges.gitea).to.deep.equal({ token: MASK, api_url: 'https://g/api/v1' });
    expect(masked.plugin_options['@acme/scanner.v2']).to.deep.equal({
      api_key: MASK,
      limit: 3,
      auth: { password: MASK },
    });
    expect(masked.plugin_options.orphan).to.deep.equal({ anything: MASK, list: MASK });
    expect(masked.forges.request_drafts).to.equal(true);
    expect(pluginSecretValues(config, sections).sort()).to.deep.equal([
      'gitea-secret-token',
      'nested-secret',
      'orphan-item',
      'orphan-value',
      'scanner-secret',
    ]);
    // Without the plugins (nothing loaded), every plugin section is masked whole.
    expect(maskSecrets(config).forges.gitea).to.deep.equal({ token: MASK, api_url: MASK });
  });

  it('accepts forges.<any name> as a mapping, leaving it to the plugins; names the sections no plugin owns', async () => {
    const { config } = await loadConfig({
      env: {},
      configPath: null,
      cwd: '/',
      flags: { forges: { gitea: { token: 't' }, nosuch: { a: 1 } } },
    });
    expect(unownedForgeSections(config, pluginSections([GITEA]))).to.deep.equal(['forges.nosuch']);
    await loadConfig({ env: {}, cwd: '/', flags: { forges: { gitea: 'not a mapping' } } }).then(
      () => expect.fail('a forge section that is not a mapping must be refused'),
      (error: Error) => expect(error.message).to.match(/forges\.gitea/),
    );
  });
});
