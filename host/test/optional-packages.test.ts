import { expect } from 'chai';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { defaultConfig, type CadenceConfig } from '@cadence-detect/config';
import { makeTempDir, type TempDir } from '@cadence-detect/test-support';
import { commandEnd } from '../src/cli/exit-codes.js';
import { loadHostPlugins } from '../src/plugins.js';
import {
  importNeedingServer,
  MissingPackageError,
  missingForgePlugin,
  optionalPlugins,
  readCatalogue,
  SERVER_PACKAGE,
} from '../src/optional-packages.js';
import { missingOptionalPlugin } from '../src/optional-plugin-settings.js';

async function thrownBy(work: () => unknown): Promise<unknown> {
  try {
    await work();
  } catch (error) {
    return error;
  }
  throw new Error('expected a failure');
}

describe('the light CLI: packages loaded when installed beside it', () => {
  let work: TempDir;
  before(async () => {
    work = await makeTempDir('cadence-optional-');
  });
  after(() => work.remove());

  it('takes its optional plugins from the catalogue the build reads from the plugins themselves', () => {
    // The umbrella package's plugins, each as its own definition names it: the host lists none.
    expect(optionalPlugins()).to.deep.equal([
      { packageName: '@cadence-detect/plugin-ai-assist', plugin: 'ai-assist', forge: null, configKey: 'ai' },
      {
        packageName: '@cadence-detect/plugin-bitbucket',
        plugin: 'bitbucket',
        forge: 'bitbucket',
        configKey: 'forges.bitbucket',
      },
      { packageName: '@cadence-detect/plugin-gitea', plugin: 'gitea', forge: 'gitea', configKey: 'forges.gitea' },
      { packageName: '@cadence-detect/plugin-github', plugin: 'github', forge: 'github', configKey: 'forges.github' },
      { packageName: '@cadence-detect/plugin-gitlab', plugin: 'gitlab', forge: 'gitlab', configKey: 'forges.gitlab' },
    ]);
  });

  it('reads a missing, damaged or malformed catalogue as naming no package', async () => {
    expect(readCatalogue(path.join(work.path, 'none.json'))).to.deep.equal([]);
    const damaged = path.join(work.path, 'damaged.json');
    await writeFile(damaged, '[{"packageName": ');
    expect(readCatalogue(damaged)).to.deep.equal([]);
    const odd = path.join(work.path, 'odd.json');
    await writeFile(
      odd,
      JSON.stringify([{ packageName: '@acme/x' }, 7, { packageName: '@acme/y', plugin: 'y', forge: 3 }]),
    );
    expect(readCatalogue(odd)).to.deep.equal([{ packageName: '@acme/y', plugin: 'y', forge: null, configKey: null }]);
  });

  it('names the server package, in one line and exit 2, when a server command cannot import it', async () => {
    // A module that imports the server from a folder where no node_modules has it: Node's own error.
    const command = path.join(work.path, 'webhook-action.mjs');
    await writeFile(command, `import '${SERVER_PACKAGE}';\nexport const run = 1;\n`);
    const error = await thrownBy(() => importNeedingServer('webhook', () => import(pathToFileURL(command).href)));
    expect(error).to.be.instanceOf(MissingPackageError);
    expect(commandEnd(error)).to.deep.equal({
      code: 2,
      message:
        'cadence webhook needs @cadence-detect/server, which is not installed: npm install -g @cadence-detect/server (beside @cadence-detect/cli), or install @cadence-detect/cadence, which brings everything',
    });
  });

  it('lets any other missing module through as it is (a bug, not an install to suggest)', async () => {
    const command = path.join(work.path, 'other-action.mjs');
    await writeFile(command, `import 'cadence-no-such-package';\n`);
    const error = await thrownBy(() => importNeedingServer('webhook', () => import(pathToFileURL(command).href)));
    expect(error).to.not.be.instanceOf(MissingPackageError);
    expect((error as { code?: string }).code).to.equal('ERR_MODULE_NOT_FOUND');
  });

  it('says which package a setting needs when its plugin did not load, and nothing when none is asked for', () => {
    const config = defaultConfig();
    expect(missingOptionalPlugin(config, [])).to.equal(null);
    const ai: CadenceConfig = { ...config, ai: { ...config.ai, enabled: true } };
    expect(missingOptionalPlugin(ai, [])?.message).to.equal(
      "the configuration's ai.enabled needs @cadence-detect/plugin-ai-assist, which is not installed: npm install -g @cadence-detect/plugin-ai-assist (beside @cadence-detect/cli), or install @cadence-detect/cadence, which brings everything",
    );
    // Nothing reads the ai: section without its plugin: the environment's switch is said here too, a written false is not.
    expect(missingOptionalPlugin(config, [], { CADENCE_AI_ENABLED: 'true' })?.message).to.contain(
      'ai.enabled needs @cadence-detect/plugin-ai-assist',
    );
    expect(missingOptionalPlugin({ ...config, ai: { enabled: false } }, [], { CADENCE_AI_ENABLED: 'no' })).to.equal(
      null,
    );
    // A value that is not a boolean is refused as the configuration refuses one, naming the variable.
    expect(() => missingOptionalPlugin(config, [], { CADENCE_AI_ENABLED: 'maybe' })).to.throw(
      'Invalid configuration: ai.enabled (from the environment variable CADENCE_AI_ENABLED) must be true or false, got "maybe"',
    );
    // The environment wins over a file, both ways.
    expect(missingOptionalPlugin({ ...config, ai: { enabled: true } }, [], { CADENCE_AI_ENABLED: 'false' })).to.equal(
      null,
    );
    const gitlab = {
      ...config,
      forges: { ...config.forges, gitlab: { url: 'https://gitlab.example' } },
    } as CadenceConfig;
    expect(missingOptionalPlugin(gitlab, [])?.packageName).to.equal('@cadence-detect/plugin-gitlab');
    const options = { ...config, plugin_options: { github: { token: 'x' } } } as CadenceConfig;
    expect(missingOptionalPlugin(options, [])?.message).to.match(
      /^the configuration's plugin_options\.github needs @cadence-detect\/plugin-github, which is not installed/,
    );
  });

  it('names the forge package a scan of github:<owner> needs, and leaves an unknown forge to the listing', () => {
    expect(missingForgePlugin('github', [])?.message).to.equal(
      'listing github:<owner> needs @cadence-detect/plugin-github, which is not installed: npm install -g @cadence-detect/plugin-github (beside @cadence-detect/cli), or install @cadence-detect/cadence, which brings everything',
    );
    expect(missingForgePlugin('nosuchforge', [])).to.equal(null);
  });

  it('loads the AI providers and the forges as built-ins where they are installed (here, the workspace)', async () => {
    const loaded = await loadHostPlugins({ config: defaultConfig(), pluginBase: null });
    const builtins = loaded.plugins.filter((p) => p.source === 'builtin').map((p) => p.plugin.name);
    expect(builtins).to.include.members(['ai-assist', 'github', 'gitlab', 'attribution', 'commit-model']);
  });
});
