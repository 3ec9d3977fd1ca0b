import { expect } from 'chai';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parse } from 'yaml';
import { makeTempDir, type TempDir } from '@cadence-detect/test-support';
import {
  ConfigError,
  configInitTemplate,
  loadConfig,
  PROJECT_FILE_KEYS,
  SERVER_SETTINGS,
  parseDuration,
  parseSize,
  renderConfigYaml,
  toPluginConfigView,
} from '../src/index.js';

describe('configuration', () => {
  let dir: TempDir;
  beforeEach(async () => {
    dir = await makeTempDir('cadence-config-');
  });
  afterEach(() => dir.remove());

  const write = (name: string, text: string): Promise<void> => writeFile(path.join(dir.path, name), text);
  const failure = (promise: Promise<unknown>): Promise<ConfigError> =>
    promise.then(
      () => {
        throw new Error('expected a ConfigError');
      },
      (e: unknown) => e as ConfigError,
    );

  it('applies the defaults of docs/configuration.md when nothing is set', async () => {
    const { config, filepath } = await loadConfig({ cwd: dir.path, env: {} });
    expect(filepath).to.equal(null);
    expect(config.thresholds).to.deep.equal({
      suspicious_additions: 500,
      suspicious_deletions: 1000,
      max_additions_per_min: 100,
      max_deletions_per_min: 500,
      min_time_delta_seconds: 60,
    });
    expect(config.limits).to.include({
      job_timeout_seconds: 300,
      clone_timeout_seconds: 120,
      queue_capacity: 1000,
      max_jobs: 10000,
      max_repo_size_mb: 2048,
      max_page_bytes: 10485760,
      shutdown_grace_seconds: 25,
    });
    expect(config.rate_limits).to.deep.equal({
      webhooks_per_minute: 100,
      job_queries_per_minute: 1000,
      metrics_per_minute: 10000,
      analyses_per_minute: 60,
    });
    expect(config.limits).to.include({
      max_open_streams: 100,
      max_unverified_webhook_bytes: 104_857_600,
      max_connections_per_client: 256,
    });
    expect(config.api).to.deep.include({
      trust_proxy: false,
      trusted_proxies: ['127.0.0.0/8', '::1/128'],
      allowed_origins: [],
    });
    expect(config.webhook).to.include({ port: 8000, host: '0.0.0.0', maxWorkers: 4, enabled: true });
    expect(config.exclude_files).to.include('package-lock.json');
    expect(config.cache.max_size).to.equal('500m');
  });

  it('reads limits.max_diff_blob_mb: 16 by default, from CADENCE_LIMITS_MAX_DIFF_BLOB_MB, never 0', async () => {
    expect((await loadConfig({ cwd: dir.path, env: {} })).config.limits.max_diff_blob_mb).to.equal(16);
    expect(
      (await loadConfig({ cwd: dir.path, env: { CADENCE_LIMITS_MAX_DIFF_BLOB_MB: '4.5' } })).config.limits
        .max_diff_blob_mb,
    ).to.equal(4.5);
    const refused = await failure(loadConfig({ cwd: dir.path, env: { CADENCE_LIMITS_MAX_DIFF_BLOB_MB: '0' } }));
    expect(refused).to.be.instanceOf(ConfigError);
    expect(refused.message).to.include('limits.max_diff_blob_mb');
  });

  it('reads scans.schedule from a file only: CADENCE_SCANS_SCHEDULE is no setting', async () => {
    const { config } = await loadConfig({ cwd: dir.path, env: { CADENCE_SCANS_SCHEDULE: 'github:acme' } });
    expect(config.scans.schedule).to.deep.equal([]);
  });

  it('finds .cadence.yaml from the working directory upwards', async () => {
    await write('.cadence.yaml', 'thresholds:\n  suspicious_additions: 42\n');
    const sub = path.join(dir.path, 'a', 'b');
    await mkdir(sub, { recursive: true });
    const { config, filepath } = await loadConfig({ cwd: sub, env: {} });
    expect(filepath).to.equal(path.join(dir.path, '.cadence.yaml'));
    expect(config.thresholds.suspicious_additions).to.equal(42);
  });

  it('takes flags over environment over file (file < env < flag)', async () => {
    await write(
      '.cadence.yaml',
      'thresholds:\n  suspicious_additions: 1\n  suspicious_deletions: 2\n  min_time_delta_seconds: 3\n',
    );
    const env = { CADENCE_THRESHOLDS_SUSPICIOUS_ADDITIONS: '10', CADENCE_THRESHOLDS_SUSPICIOUS_DELETIONS: '20' };
    const { config } = await loadConfig({ cwd: dir.path, env, flags: { thresholds: { suspicious_additions: 100 } } });
    expect(config.thresholds).to.include({
      suspicious_additions: 100,
      suspicious_deletions: 20,
      min_time_delta_seconds: 3,
    });
  });

  it('reads limits.max_connections_per_client from CADENCE_LIMITS_MAX_CONNECTIONS_PER_CLIENT, and refuses 0', async () => {
    expect(
      (await loadConfig({ cwd: dir.path, env: { CADENCE_LIMITS_MAX_CONNECTIONS_PER_CLIENT: '32' } })).config.limits
        .max_connections_per_client,
    ).to.equal(32);
    expect(
      (await failure(loadConfig({ cwd: dir.path, env: { CADENCE_LIMITS_MAX_CONNECTIONS_PER_CLIENT: '0' } }))).message,
    ).to.contain('limits.max_connections_per_client');
  });

  it('reads the bare aliases, and the CADENCE_ name wins where both are set', async () => {
    const { config } = await loadConfig({
      cwd: dir.path,
      env: {
        LOG_LEVEL: 'debug',
        MAX_WORKERS: '7',
        GIT_DEPTH: '50',
        CADENCE_GIT_DEPTH: '5',
        CACHE_MAX_SIZE: '1g',
      },
    });
    expect(config.logging.level).to.equal('debug');
    expect(config.webhook.maxWorkers).to.equal(7);
    expect(config.git.depth).to.equal(5);
    expect(config.cache.max_size).to.equal('1g');
  });

  it('parses interface spellings, booleans and comma-separated lists from the environment', async () => {
    const { config } = await loadConfig({
      cwd: dir.path,
      env: {
        CADENCE_WEBHOOK_READ_TIMEOUT: '12',
        CADENCE_SECURITY_ALLOWED_NETWORKS: '127.0.0.2/32, 10.0.0.0/8',
        CADENCE_EXCLUDE_FILES: '*.lock,dist/**',
      },
    });
    expect(config.webhook.read_timeout_seconds).to.equal(12);
    expect(config.security.allowed_networks).to.deep.equal(['127.0.0.2/32', '10.0.0.0/8']);
    expect(config.exclude_files).to.deep.equal(['*.lock', 'dist/**']);
  });

  it('accepts a file with an ai: section and every other section (the whole schema from the start)', async () => {
    // The ai: section is the AI plugin's (its template comes from its schema): the file key stays the configuration's.
    const ai = 'ai:\n  enabled: true\n  provider: anthropic\n  key: sk-test-1234567\n  model: claude-x\n';
    await write('chosen.yaml', `${configInitTemplate()}\n${SERVER_SETTINGS}\n${ai}`);
    // A file the user chose: a found one sets analysis data only (tested below).
    const { config } = await loadConfig({ cwd: dir.path, configPath: 'chosen.yaml', env: {} });
    expect(config.ai).to.include({ enabled: true, provider: 'anthropic', model: 'claude-x' });
  });

  it('stops on an unknown key with one message naming the key and the file', async () => {
    await write('.cadence.yaml', 'thresholds:\n  suspicious_additons: 5\n');
    const error = await failure(loadConfig({ cwd: dir.path, env: {} }));
    expect(error).to.be.instanceOf(ConfigError);
    // Its exit code, 2, is the CLI's to choose: host/test/exit-codes.test.ts.
    expect(error.message)
      .to.contain('thresholds.suspicious_additons')
      .and.contain(path.join(dir.path, '.cadence.yaml'));
    expect(error.message).to.contain('(did you mean thresholds.suspicious_additions?)');
  });

  it('takes assessment bands from a project file, and refuses bands out of order or out of range', async () => {
    await write('.cadence.yaml', 'assessment:\n  suspicious: 0.2\n  likely_ai_generated: 0.6\n');
    expect((await loadConfig({ cwd: dir.path, env: {} })).config.assessment).to.deep.equal({
      suspicious: 0.2,
      likely_ai_generated: 0.6,
    });
    await write('.cadence.yaml', 'assessment:\n  suspicious: 0.7\n  likely_ai_generated: 0.6\n');
    const disordered = await failure(loadConfig({ cwd: dir.path, env: {} }));
    expect(disordered.message)
      .to.contain('assessment.suspicious')
      .and.contain('must not be above assessment.likely_ai_generated');
    await write('.cadence.yaml', 'assessment:\n  likely_ai_generated: 1.5\n');
    expect((await failure(loadConfig({ cwd: dir.path, env: {} }))).message).to.contain(
      'assessment.likely_ai_generated',
    );
  });

  it('takes scans.schedule from a chosen file, and refuses a period under a minute or a target without its forge', async () => {
    await write(
      'ops.yaml',
      'scans:\n  allowed_owners: ["github:acme"]\n  schedule:\n    - target: github:acme\n      every: 24h\n',
    );
    const { config } = await loadConfig({ cwd: dir.path, env: {}, configPath: path.join(dir.path, 'ops.yaml') });
    expect(config.scans).to.deep.equal({
      allowed_owners: ['github:acme'],
      max_queued_children: 4,
      schedule: [{ target: 'github:acme', every: '24h' }],
    });
    expect(config.limits.scan_timeout_seconds).to.equal(21_600);
    await write('ops.yaml', 'scans:\n  schedule:\n    - target: github:acme\n      every: 5s\n');
    expect(
      (await failure(loadConfig({ cwd: dir.path, env: {}, configPath: path.join(dir.path, 'ops.yaml') }))).message,
    ).to.contain('scans.schedule[0].every');
    for (const target of ['acme', 'github:acme/../other', 'github:-acme', 'github:']) {
      await write('ops.yaml', `scans:\n  schedule:\n    - target: "${target}"\n      every: 1h\n`);
      expect(
        (await failure(loadConfig({ cwd: dir.path, env: {}, configPath: path.join(dir.path, 'ops.yaml') }))).message,
        target,
      ).to.contain('scans.schedule[0].target');
    }
    await write('ops.yaml', 'scans:\n  allowed_owners: ["github:acme", "acme"]\n');
    expect(
      (await failure(loadConfig({ cwd: dir.path, env: {}, configPath: path.join(dir.path, 'ops.yaml') }))).message,
    ).to.contain('scans.allowed_owners[1]');
  });

  it('stops on a wrong type or a negative threshold, naming the key', async () => {
    await write('.cadence.yaml', 'thresholds:\n  suspicious_additions: -3\n');
    expect((await failure(loadConfig({ cwd: dir.path, env: {} }))).key).to.equal('thresholds.suspicious_additions');
    await write('chosen.yaml', 'webhook:\n  port: eighty\n');
    const error = await failure(loadConfig({ cwd: dir.path, configPath: 'chosen.yaml', env: {} }));
    expect(error.message).to.contain('webhook.port');
    expect(error.message).to.match(/webhook\.port must be .*, found "eighty"$/);
    await write('.cadence.yaml', 'thresholds:\n  suspicious_additions: 12.5\n');
    expect((await failure(loadConfig({ cwd: dir.path, env: {} }))).message).to.match(
      /thresholds\.suspicious_additions must be integer, found 12\.5$/,
    );
    // A secret's value is never repeated.
    await write('secret.yaml', 'webhook:\n  secret: 12345\n');
    const secret = await failure(loadConfig({ cwd: dir.path, configPath: 'secret.yaml', env: {} }));
    expect(secret.message).to.contain('webhook.secret').and.not.to.contain('12345');
  });

  it('takes a path prefix as /segment[/segment], and refuses one without its slash, with a trailing one or with other characters', async () => {
    expect(
      (await loadConfig({ cwd: dir.path, env: { CADENCE_SERVER_BASE_PATH: '/tools/cadence' } })).config.server
        .base_path,
    ).to.equal('/tools/cadence');
    expect((await loadConfig({ cwd: dir.path, env: {} })).config.server.base_path).to.equal('');
    for (const bad of ['cadence', '/cadence/', '/', '/ca dence', '/../x?y']) {
      expect(
        (await failure(loadConfig({ cwd: dir.path, env: { CADENCE_SERVER_BASE_PATH: bad } }))).message,
        bad,
      ).to.contain('server.base_path');
    }
  });

  it('stops on a malformed YAML file and on a bad environment value, naming the source', async () => {
    await write('bad.yaml', 'thresholds: [unclosed\n');
    expect((await failure(loadConfig({ cwd: dir.path, configPath: 'bad.yaml', env: {} }))).message).to.contain(
      'not valid YAML',
    );
    const envError = await failure(loadConfig({ cwd: dir.path, env: { CADENCE_WEBHOOK_PORT: 'abc' } }));
    expect(envError.message).to.contain('CADENCE_WEBHOOK_PORT');
  });

  it('refuses a JavaScript file named by --config and ignores one found by the search, with a warning', async () => {
    await write('cadence.config.js', 'throw new Error("must never run")');
    expect((await failure(loadConfig({ cwd: dir.path, configPath: 'cadence.config.js', env: {} }))).message).to.contain(
      'JavaScript configuration files are not allowed',
    );
    const { warnings, filepath } = await loadConfig({ cwd: dir.path, env: {} });
    expect(filepath).to.equal(null);
    expect(warnings.join('\n')).to.contain('cadence.config.js');
  });

  it('reads JSON files and a missing --config file is an error', async () => {
    await write('custom.json', JSON.stringify({ git: { depth: 3 } }));
    expect((await loadConfig({ cwd: dir.path, configPath: 'custom.json', env: {} })).config.git.depth).to.equal(3);
    expect((await failure(loadConfig({ cwd: dir.path, configPath: 'missing.yaml', env: {} }))).message).to.contain(
      'not found',
    );
  });

  it('prints the effective configuration as YAML with secrets masked (a plugin section without its plugin whole)', async () => {
    await write('chosen.yaml', 'ai:\n  key: sk-very-secret\n');
    const { config } = await loadConfig({
      cwd: dir.path,
      configPath: 'chosen.yaml',
      env: {
        CADENCE_WEBHOOK_SECRET: 'hook-secret-value',
        CADENCE_API_TOKEN: 'tok-123456',
      },
    });
    const text = renderConfigYaml(config);
    for (const secret of ['sk-very-secret', 'hook-secret-value', 'tok-123456']) expect(text).to.not.contain(secret);
    const printed = parse(text) as { ai: { key: string }; webhook: { secret: string } };
    expect(printed.ai.key).to.equal('****');
    expect(printed.webhook.secret).to.equal('****');
  });

  it('writes an init template that loads as a valid configuration equal to the defaults', async () => {
    await write('.cadence.yaml', configInitTemplate());
    const fromTemplate = (await loadConfig({ cwd: dir.path, env: {} })).config;
    await write('.cadence.yaml', '{}');
    const defaults = (await loadConfig({ cwd: dir.path, env: {} })).config;
    expect(fromTemplate).to.deep.equal(defaults);
  });

  it('gives plugins a read-only view without any plugin\u2019s section', async () => {
    await write('chosen.yaml', 'ai:\n  enabled: true\n  key: sk-view-test\n');
    const { config } = await loadConfig({ cwd: dir.path, configPath: 'chosen.yaml', env: {} });
    const view = toPluginConfigView(config);
    expect(Object.keys(view).sort()).to.deep.equal(['exclude_authors', 'exclude_files', 'strategies', 'thresholds']);
    expect(JSON.stringify(view)).to.not.contain('sk-view-test');
    expect(Object.isFrozen(view)).to.equal(true);
  });

  it('parses durations and sizes, refusing malformed ones', async () => {
    expect([parseDuration('500ms'), parseDuration('2s'), parseDuration('1m')]).to.deep.equal([500, 2000, 60000]);
    expect([parseSize('500m'), parseSize('1g'), parseSize('64k'), parseSize('100')]).to.deep.equal([
      500 * 1048576,
      1073741824,
      65536,
      100,
    ]);
    expect(Number.isNaN(parseDuration('soon'))).to.equal(true);
    const error = await failure(loadConfig({ cwd: dir.path, env: { CACHE_MAX_SIZE: 'lots' } }));
    expect(error.key).to.equal('cache.max_size');
  });

  describe('the user\u2019s file, the project file and --config', () => {
    const env = (): NodeJS.ProcessEnv => ({ HOME: dir.path, XDG_CONFIG_HOME: path.join(dir.path, 'xdg') });
    const writeUser = async (text: string): Promise<string> => {
      await mkdir(path.join(dir.path, 'xdg', 'cadence'), { recursive: true });
      const file = path.join(dir.path, 'xdg', 'cadence', 'config.yaml');
      await writeFile(file, text);
      return file;
    };

    it('puts the user\u2019s file over the project file, and takes plugins from the user\u2019s only', async () => {
      const user = await writeUser(
        'plugins: [./mine]\nthresholds:\n  suspicious_additions: 1\n  suspicious_deletions: 2\n',
      );
      const project = path.join(dir.path, 'repo');
      await mkdir(project);
      await writeFile(
        path.join(project, '.cadence.yaml'),
        'plugins: [./evil]\nthresholds:\n  suspicious_additions: 10\n  max_deletions_per_min: 7\n',
      );
      const loaded = await loadConfig({ cwd: project, env: env() });
      expect(loaded.files).to.deep.equal([path.join(project, '.cadence.yaml'), user]);
      expect(loaded.config.thresholds).to.include({
        suspicious_additions: 1,
        suspicious_deletions: 2,
        max_deletions_per_min: 7,
      });
      expect(loaded.config.plugins).to.deep.equal(['./mine']);
      expect(loaded.pluginBase).to.equal(path.dirname(user));
      expect(loaded.warnings).to.have.length(1);
      expect(loaded.warnings[0])
        .to.contain(path.join(project, '.cadence.yaml'))
        .and.contain('Ignored plugins in')
        .and.contain('never loads code')
        .and.contain('--config');
    });

    it('takes only analysis data from a found file: every other section is ignored with one warning naming them', async () => {
      await writeUser('ai:\n  baseUrl: https://ai.example.com/v1\n');
      const project = path.join(dir.path, 'cloned');
      await mkdir(project);
      await writeFile(
        path.join(project, '.cadence.yaml'),
        [
          'ai:\n  enabled: true\n  baseUrl: https://collector.invalid/v1\n  key: sk-theirs\n  provider: anthropic\n  batch_size: 3',
          'forges:\n  github:\n    api_url: http://collector.invalid/api',
          'security:\n  allow_private_networks: true\n  allow_local_paths: true\n  allowed_networks: ["0.0.0.0/0"]',
          'api:\n  trusted_proxies: ["0.0.0.0/0"]',
          'webhook:\n  port: 1',
          'plugin_options:\n  x: {a: 1}',
          'server:\n  public_url: http://collector.invalid',
          'limits:\n  max_repo_size_mb: 999999',
          'redis:\n  url: redis://collector.invalid',
          'logging:\n  level: debug',
          'thresholds:\n  suspicious_additions: 77',
          'assessment:\n  suspicious: 0.3',
          'strategies:\n  disabled: [timing]',
          'report:\n  fail_on: suspicious',
          'exclude_files: ["*.gen"]',
        ].join('\n') + '\n',
      );
      const loaded = await loadConfig({ cwd: project, env: env() });
      const defaults = await loadConfig({
        cwd: dir.path,
        env: { HOME: dir.path, XDG_CONFIG_HOME: path.join(dir.path, 'none') },
      });
      expect(loaded.config.ai).to.deep.equal({ ...defaults.config.ai, baseUrl: 'https://ai.example.com/v1' });
      for (const key of [
        'forges',
        'security',
        'api',
        'webhook',
        'plugin_options',
        'server',
        'limits',
        'redis',
        'logging',
      ] as const) {
        expect(loaded.config[key], key).to.deep.equal(defaults.config[key]);
      }
      expect(loaded.config.thresholds.suspicious_additions).to.equal(77);
      expect(loaded.config.assessment.suspicious).to.equal(0.3);
      expect(loaded.config.strategies.disabled).to.deep.equal(['timing']);
      expect(loaded.config.report.fail_on).to.equal('suspicious');
      expect(loaded.config.exclude_files).to.deep.equal(['*.gen']);
      expect(loaded.warnings).to.have.length(1);
      expect(loaded.warnings[0])
        .to.contain('Ignored ai, forges, security, api, webhook, plugin_options, server, limits, redis, logging in')
        .and.contain('--config');
      // Named with --config, the same file is the user's choice: all of it applies.
      const chosen = await loadConfig({ cwd: project, configPath: '.cadence.yaml', env: env() });
      expect(chosen.config.ai).to.include({ baseUrl: 'https://collector.invalid/v1', provider: 'anthropic' });
    });

    it('builds the allow-list from the schema: analysis data only', () => {
      expect([...PROJECT_FILE_KEYS].sort()).to.deep.equal([
        'assessment',
        'exclude_authors',
        'exclude_files',
        'report',
        'strategies',
        'thresholds',
      ]);
    });

    it('reads the cadence key of a package.json found by searching as a project file', async () => {
      await write(
        'package.json',
        JSON.stringify({
          name: 'x',
          version: '1.0.0',
          cadence: { thresholds: { suspicious_additions: 9 }, ai: { baseUrl: 'http://collector.invalid' } },
        }),
      );
      const loaded = await loadConfig({ cwd: dir.path, env: env() });
      expect(loaded.config.thresholds.suspicious_additions).to.equal(9);
      expect(loaded.config.ai).to.not.have.property('baseUrl');
      expect(loaded.warnings.join('\n')).to.contain('Ignored ai in');
    });

    it('still stops on a key the schema does not know in a found file, naming it', async () => {
      await write('.cadence.yaml', 'webhooks:\n  port: 1\n');
      expect((await failure(loadConfig({ cwd: dir.path, env: env() }))).message).to.contain('unknown key webhooks');
    });

    it('reads only the --config file, whose plugins load', async () => {
      await writeUser('thresholds:\n  suspicious_deletions: 2\n');
      await write('chosen.yaml', 'plugins: [./chosen]\n');
      const loaded = await loadConfig({ cwd: dir.path, configPath: 'chosen.yaml', env: env() });
      expect(loaded.files).to.deep.equal([path.join(dir.path, 'chosen.yaml')]);
      expect(loaded.config.plugins).to.deep.equal(['./chosen']);
      expect(loaded.config.thresholds.suspicious_deletions).to.equal(1000);
      expect(loaded.warnings).to.deep.equal([]);
    });

    it('never runs a JavaScript file in the working directory, cosmiconfig\u2019s meta configuration included', async () => {
      await mkdir(path.join(dir.path, '.config'));
      await write('.config/config.js', 'throw new Error("must never run")');
      await write('package.json', JSON.stringify({ cosmiconfig: { searchPlaces: ['evil.js'] } }));
      await write('evil.js', 'throw new Error("must never run")');
      const loaded = await loadConfig({ cwd: dir.path, env: env() });
      expect(loaded.files).to.deep.equal([]);
    });
  });
});
