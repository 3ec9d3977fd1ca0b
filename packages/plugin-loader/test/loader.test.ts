import { expect } from 'chai';
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { makeTempDir } from '@cadence-detect/test-support';
import { PLUGIN_API_VERSION } from '@cadence-detect/plugin-sdk';
import { installationNodeModules, loadPlugins, PluginLoadError } from '../src/index.js';

interface FixtureOptions {
  readonly keywords?: string[];
  readonly peer?: string | null;
  readonly source?: string;
  readonly name?: string;
}

const GOOD_SOURCE = (name: string): string => `
export default {
  name: ${JSON.stringify(name)},
  apply(hooks) {
    hooks.registerStrategies.tap(${JSON.stringify(name)}, (registrar) => registrar.add({
      meta: { name: ${JSON.stringify(name)}, category: 'test', description: 'fixture', appliesTo: 'repository', weight: 0.5 },
      analyze: () => [],
    }));
  },
};
`;

async function writePackage(dir: string, name: string, options: FixtureOptions = {}): Promise<string> {
  await mkdir(dir, { recursive: true });
  const manifest: Record<string, unknown> = {
    name: options.name ?? name,
    version: '1.2.3',
    type: 'module',
    exports: { '.': { default: './index.js' } },
    keywords: options.keywords ?? ['cadence-plugin'],
  };
  if (options.peer !== null) manifest.peerDependencies = { '@cadence-detect/plugin-sdk': options.peer ?? '^2.0.0' };
  await writeFile(path.join(dir, 'package.json'), JSON.stringify(manifest));
  await writeFile(path.join(dir, 'index.js'), options.source ?? GOOD_SOURCE(name.replace(/^@[^/]+\//, '')));
  return dir;
}

interface LoggedError {
  message: string;
  fields: Record<string, unknown> | undefined;
}

function recordingLogger(): {
  logger: { debug(): void; info(): void; warn(): void; error(m: string, f?: Record<string, unknown>): void };
  errors: LoggedError[];
} {
  const errors: LoggedError[] = [];
  return {
    errors,
    logger: { debug() {}, info() {}, warn() {}, error: (message, fields) => errors.push({ message, fields }) },
  };
}

async function rejects(promise: Promise<unknown>, type: new (...args: never[]) => Error): Promise<void> {
  const outcome = await promise.then(
    () => null,
    (error: unknown) => error,
  );
  expect(outcome).to.be.instanceOf(type);
}

describe('plugin loader', () => {
  let root: string;
  let removeRoot: () => Promise<void>;
  beforeEach(async () => {
    const dir = await makeTempDir('cadence-loader-');
    root = dir.path;
    removeRoot = dir.remove;
  });
  afterEach(() => removeRoot());

  const load = (configured: string[], extra: Partial<Parameters<typeof loadPlugins>[0]> = {}) =>
    loadPlugins({ builtins: [], hostDir: root, configured, configDir: root, discoverIn: [], ...extra });

  it('loads a plugin named by path, relative to the configuration folder', async () => {
    await writePackage(path.join(root, 'local-plugin'), 'local-plugin');
    const { plugins, entries } = await load(['./local-plugin']);
    expect(plugins.map((p) => [p.packageName, p.version, p.source])).to.deep.equal([
      ['local-plugin', '1.2.3', 'config'],
    ]);
    expect(entries[0]).to.include({ status: 'loaded', reason: null });
  });

  it('loads a plugin named by package, from node_modules, and discovers keyword packages there', async () => {
    await writePackage(path.join(root, 'node_modules', 'named-plugin'), 'named-plugin');
    await writePackage(path.join(root, 'node_modules', '@acme', 'cadence-plugin-x'), '@acme/cadence-plugin-x');
    await writePackage(path.join(root, 'node_modules', 'not-a-plugin'), 'not-a-plugin', { keywords: ['other'] });
    const { plugins } = await load(['named-plugin'], { discoverIn: [path.join(root, 'node_modules')] });
    expect(plugins.map((p) => `${p.packageName}:${p.source}`)).to.deep.equal([
      'named-plugin:config',
      '@acme/cadence-plugin-x:discovered',
    ]);
  });

  it('stops with a clear error when a named plugin is missing', async () => {
    const error = await load(['./nowhere']).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).to.be.instanceOf(PluginLoadError);
    // Its exit code, 2, is the CLI's to choose: host/test/exit-codes.test.ts.
    expect((error as Error).message).to.match(/plugin \.\/nowhere \(config\) could not be loaded: not found/);
  });

  it('refuses a named plugin whose module throws while loading, or exports no plugin', async () => {
    await writePackage(path.join(root, 'throws'), 'throws', { source: 'throw new Error("boom at import");' });
    await writePackage(path.join(root, 'shapeless'), 'shapeless', { source: 'export default { name: "shapeless" };' });
    const thrown = await load(['./throws']).then(
      () => null,
      (e: Error) => e,
    );
    expect(thrown?.message).to.contain('import failed: boom at import');
    const shapeless = await load(['./shapeless']).then(
      () => null,
      (e: Error) => e,
    );
    expect(shapeless?.message).to.contain('has no apply(hooks) method');
  });

  it('skips a broken discovered plugin with an error log and loads the rest', async () => {
    await writePackage(path.join(root, 'node_modules', 'broken-plugin'), 'broken-plugin', {
      source: 'export default 42;',
    });
    await writePackage(path.join(root, 'node_modules', 'fine-plugin'), 'fine-plugin');
    const { logger, errors } = recordingLogger();
    const { plugins, entries } = await load([], { discoverIn: [path.join(root, 'node_modules')], logger });
    expect(plugins.map((p) => p.packageName)).to.deep.equal(['fine-plugin']);
    expect(entries.find((e) => e.packageName === 'broken-plugin')).to.include({ status: 'failed' });
    expect(errors).to.have.length(1);
    expect(errors[0]!.fields).to.include({ plugin: 'broken-plugin' });
  });

  it('refuses a plugin built for another plugin API version and says which versions fit', async () => {
    await writePackage(path.join(root, 'future'), 'future', { peer: '^3.0.0' });
    const error = await load(['./future']).then(
      () => null,
      (e: PluginLoadError) => e,
    );
    expect(error?.entry.status).to.equal('incompatible');
    expect(error?.message)
      .to.contain(`targets plugin API ^3.0.0, but this host provides ${PLUGIN_API_VERSION}`)
      .and.match(/\^2\.0\.0/);
  });

  it('refuses a plugin that declares no API version at all', async () => {
    await writePackage(path.join(root, 'undeclared'), 'undeclared', { peer: null });
    const error = await load(['./undeclared']).then(
      () => null,
      (e: Error) => e,
    );
    expect(error?.message).to.contain('declares no plugin API version');
  });

  it('reports every candidate without throwing when asked (cadence plugins)', async () => {
    await writePackage(path.join(root, 'future'), 'future', { peer: '^3.0.0' });
    const { plugins, entries } = await load(['./future', './missing'], { throwOnRequiredFailure: false });
    expect(plugins).to.have.length(0);
    expect(entries.map((e) => e.status)).to.deep.equal(['incompatible', 'failed']);
  });

  it('loads and lists a package found twice (named and discovered, one through a symlink) once', async () => {
    await writePackage(path.join(root, 'node_modules', 'twice'), 'twice');
    await symlink(path.join(root, 'node_modules', 'twice'), path.join(root, 'linked-twice'), 'dir');
    const { plugins, entries } = await load(['twice', './linked-twice'], {
      discoverIn: [path.join(root, 'node_modules')],
    });
    expect(plugins).to.have.length(1);
    expect(entries.map((e) => [e.status, e.source])).to.deep.equal([['loaded', 'config']]);
  });

  it('reports another copy of a loaded package as a duplicate, naming the copy that loaded', async () => {
    const first = await writePackage(path.join(root, 'first', 'copy'), 'copy');
    await writePackage(path.join(root, 'second', 'copy'), 'copy');
    const { plugins, entries } = await load(['./first/copy', './second/copy']);
    expect(plugins).to.have.length(1);
    expect(entries.map((e) => e.status)).to.deep.equal(['loaded', 'duplicate']);
    expect(entries[1]!.reason).to.equal(`another copy is already loaded (config, ${first})`);
  });

  it('discovers in the installation: the node_modules Node searches from the host package, nearest first', async () => {
    // A host installed into <root>/node_modules/@cadence-detect/cli with a nested node_modules of its own.
    const host = path.join(root, 'node_modules', '@cadence-detect', 'cli');
    await mkdir(path.join(host, 'node_modules'), { recursive: true });
    await mkdir(path.join(root, 'elsewhere', 'node_modules'), { recursive: true });
    const folders = installationNodeModules(host);
    expect(folders.slice(0, 2)).to.deep.equal([path.join(host, 'node_modules'), path.join(root, 'node_modules')]);
    expect(folders).to.not.include(path.join(root, 'elsewhere', 'node_modules'));
    expect(folders).to.not.include(path.join(root, 'node_modules', 'node_modules'));
  });

  it('never above the installation: a node_modules in a parent folder (a shared /tmp) is not searched', async () => {
    // The CI templates install into `mktemp -d`: <root>/job/node_modules/@cadence-detect/cli, while
    // <root>/node_modules (a shared /tmp's) holds a planted plugin and a fake forge package.
    const install = path.join(root, 'job', 'node_modules');
    const host = path.join(install, '@cadence-detect', 'cli');
    await mkdir(host, { recursive: true });
    await writePackage(path.join(root, 'node_modules', 'evil-plugin'), 'evil-plugin');
    await writePackage(
      path.join(root, 'node_modules', '@cadence-detect', 'plugin-github'),
      '@cadence-detect/plugin-github',
    );
    await writePackage(path.join(install, 'good-plugin'), 'good-plugin');
    const folders = installationNodeModules(host);
    expect(folders).to.deep.equal([install]);
    const { plugins, entries } = await loadPlugins({
      builtins: [],
      optionalBuiltins: ['@cadence-detect/plugin-github'],
      hostDir: host,
      configured: ['evil-plugin'],
      configDir: path.join(root, 'job'),
      discoverIn: folders,
      moduleFolders: folders,
      throwOnRequiredFailure: false,
    });
    expect(plugins.map((p) => `${p.packageName}:${p.source}`)).to.deep.equal(['good-plugin:discovered']);
    // Named under plugins:, a package is looked for in the configuration folder's node_modules and the installation's alone.
    expect(entries.find((e) => e.specifier === 'evil-plugin')).to.include({ status: 'failed' });
  });

  it('a pnpm project: the project’s node_modules holds the package too (node_modules/.pnpm/<name>/node_modules)', async () => {
    const project = path.join(root, 'project', 'node_modules');
    const store = path.join(project, '.pnpm', '@cadence-detect+cli@1.0.0', 'node_modules');
    const host = path.join(store, '@cadence-detect', 'cli');
    await mkdir(host, { recursive: true });
    await mkdir(path.join(root, 'node_modules'), { recursive: true });
    expect(installationNodeModules(host)).to.deep.equal([store, project]);
  });

  it('does not discover a built-in again', async () => {
    await writePackage(path.join(root, 'node_modules', 'builtin-plugin'), 'builtin-plugin');
    const { plugins, entries } = await load([], {
      builtins: ['builtin-plugin'],
      hostDir: root,
      discoverIn: [path.join(root, 'node_modules')],
    });
    expect(plugins.map((p) => `${p.packageName}:${p.source}`)).to.deep.equal(['builtin-plugin:builtin']);
    expect(entries).to.have.length(1);
  });

  it('loads an optional built-in where the host resolves it, skips one that is absent, and still fails a broken one', async () => {
    await writePackage(path.join(root, 'node_modules', 'optional-here'), 'optional-here');
    await writePackage(path.join(root, 'node_modules', 'optional-broken'), 'optional-broken', {
      source: 'export default { name: 42 };',
    });
    const { plugins, entries } = await load([], {
      optionalBuiltins: ['optional-here', 'optional-absent'],
      hostDir: root,
      discoverIn: [path.join(root, 'node_modules')],
      throwOnRequiredFailure: false,
    });
    expect(plugins.map((p) => `${p.packageName}:${p.source}`)).to.deep.equal(['optional-here:builtin']);
    // The absent one leaves no row; the broken one (found by discovery, not named) is reported.
    expect(entries.map((e) => `${e.specifier}:${e.status}`)).to.deep.equal([
      'optional-here:loaded',
      'optional-broken:failed',
    ]);
    await rejects(load([], { optionalBuiltins: ['optional-broken'], hostDir: root }), PluginLoadError);
  });
});
