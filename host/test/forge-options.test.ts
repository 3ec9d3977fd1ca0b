import { expect } from 'chai';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { loadConfig } from '@cadence-detect/config';
import { makeTempDir, runCadence, type TempDir } from '@cadence-detect/test-support';
import { loadHostPlugins } from '../src/plugins.js';

describe('forge settings: decided once, as the options of the plugin that declares each forge', function () {
  this.timeout(60_000);
  let work: TempDir;
  before(async () => {
    work = await makeTempDir('cadence-forge-options-');
  });
  after(() => work.remove());

  async function optionsOf(
    flags: Record<string, unknown>,
  ): Promise<Map<string, Readonly<Record<string, unknown>> | undefined>> {
    const { config } = await loadConfig({ cwd: work.path, env: {}, flags });
    const { plugins } = await loadHostPlugins({ config, env: {}, pluginBase: null });
    return new Map(plugins.filter((p) => p.plugin.forge).map((p) => [p.plugin.forge!.name, p.options]));
  }

  it('gives forges.<name>, report.fail_on and forges.request_drafts to the plugin of forge <name>, under plugin_options', async () => {
    const forges = await optionsOf({
      forges: { github: { token: 'ghp_configured', api_url: 'https://ghe.example.test/api/v3' }, request_drafts: true },
      report: { fail_on: 'suspicious' },
      plugin_options: { gitlab: { merge_request_note: true } },
    });
    expect([...forges.keys()].sort()).to.deep.equal(['bitbucket', 'gitea', 'github', 'gitlab']);
    expect(forges.get('github')).to.deep.equal({
      token: 'ghp_configured',
      app_id: null,
      private_key: null,
      private_key_path: null,
      api_url: 'https://ghe.example.test/api/v3',
      git_hosts: [],
      fail_on: 'suspicious',
      request_drafts: true,
    });
    expect(forges.get('gitlab')).to.deep.equal({
      token: null,
      api_url: 'https://gitlab.com/api/v4',
      git_hosts: [],
      merge_request_note: true,
      fail_on: 'suspicious',
      request_drafts: true,
    });
  });

  it('loads both forge plugins without configuration: their intake takes pushes, and nothing reports', async () => {
    const forges = await optionsOf({});
    expect(forges.get('github')).to.include({ token: null, app_id: null, fail_on: 'never', request_drafts: false });
    expect(forges.get('gitlab')).to.include({ token: null });
  });

  it('stops start-up with exit code 2 naming an App key file that cannot be read, never the key', async () => {
    const configFile = path.join(work.path, 'cadence.yaml');
    const missing = path.join(work.path, 'no-such-key.pem');
    await writeFile(configFile, `forges:\n  github:\n    app_id: 4242\n    private_key_path: ${missing}\n`);
    const run = await runCadence(['analyze', work.path, '--config', configFile], { cwd: work.path });
    expect(run.code, run.stderr).to.equal(2);
    expect(run.stderr).to.contain(`forges.github.private_key_path: cannot read ${missing} (ENOENT)`);
  });
});
