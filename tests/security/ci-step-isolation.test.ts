import { expect } from 'chai';
import { mkdir, readdir, readFile, writeFile, chmod } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  makeTempDir,
  runActionStep,
  runBitbucketStep,
  runCadence,
  runGitlabJob,
  runWorkflowStep,
  startNpmRegistry,
  type NpmRegistry,
  type TempDir,
} from '@cadence-detect/test-support';

const root = path.resolve(fileURLToPath(new URL('.', import.meta.url)), '../..');
const CLI = '@cadence-detect/cli';
const FORGE_PLUGINS = [
  '@cadence-detect/plugin-github',
  '@cadence-detect/plugin-gitlab',
  '@cadence-detect/plugin-bitbucket',
  '@cadence-detect/plugin-gitea',
];

/**
 * The Action's step and the GitLab template's script as a runner runs them, in a pull request that
 * plants what npm and npx would read from their working folder: its own `cadence` under
 * node_modules (and `.bin/cadence`, `.bin/node`, `.bin/git`), and an `.npmrc` naming another
 * registry. The user's npm configuration names a registry of the test's, which serves a CLI at the
 * action's version that records how it was run. Every planted program writes a marker when it runs.
 */
describe('CI steps never run or read what a pull request commits (the Action, the GitLab and Bitbucket templates, the Gitea workflow)', function () {
  this.timeout(120_000);
  let work: TempDir;
  let markers: string;
  let userRegistry: NpmRegistry;
  let requestRegistry: NpmRegistry;
  let version: string;

  /** A CLI package that, when run, records its arguments, folder, node and workspace (or writes `marker`). */
  function cliPackage(script: string): Record<string, string> {
    return {
      'package.json': JSON.stringify({ name: CLI, version, bin: { cadence: './bin/cadence.js' } }),
      'bin/cadence.js': `#!/usr/bin/env node\n${script}\n`,
    };
  }

  const recorder = `const { execFileSync } = require('node:child_process');
const { writeFileSync } = require('node:fs');
const git = execFileSync('git', ['--version']).toString().trim();
writeFileSync(process.env.CADENCE_STEP_RECORD, JSON.stringify({ argv: process.argv.slice(2), cwd: process.cwd(), node: process.execPath, git, workspace: process.env.GITHUB_WORKSPACE || process.env.CI_PROJECT_DIR || process.env.BITBUCKET_CLONE_DIR, inputs: Object.fromEntries(Object.entries(process.env).filter(([k]) => k.startsWith('INPUT_') || k === 'CADENCE_FAIL_ON')) }));`;

  const marker = (name: string): string =>
    `require('node:fs').writeFileSync(${JSON.stringify(path.join(markers, name))}, 'ran');`;

  before(async () => {
    work = await makeTempDir('cadence-ci-step-');
    markers = path.join(work.path, 'markers');
    await mkdir(markers);
    version = (JSON.parse(await readFile(path.join(root, 'host/package.json'), 'utf8')) as { version: string }).version;
    // Each step installs its forge's plugin beside the CLI, at the same version: a package with nothing to run.
    const forgePlugins = FORGE_PLUGINS.map((name) => ({
      name,
      version,
      files: { 'package.json': JSON.stringify({ name, version, keywords: ['cadence-plugin'] }) },
    }));
    userRegistry = await startNpmRegistry([{ name: CLI, version, files: cliPackage(recorder) }, ...forgePlugins]);
    requestRegistry = await startNpmRegistry([
      { name: CLI, version, files: cliPackage(marker('request-registry-cli')) },
      ...forgePlugins,
    ]);
  });
  after(async () => {
    await userRegistry.close();
    await requestRegistry.close();
    await work.remove();
  });

  /**
   * A checkout whose files try a way in: `bin`, a local CLI at the action's version with .bin shims
   * (cadence, node, git, npm); `npmrc`, an .npmrc naming the request's registry.
   */
  async function plantedCheckout(name: string, plant: 'bin' | 'npmrc'): Promise<string> {
    const dir = path.join(work.path, name);
    await mkdir(dir);
    if (plant === 'npmrc') {
      await writeFile(path.join(dir, '.npmrc'), `registry=${requestRegistry.url}\n`);
      return dir;
    }
    await mkdir(path.join(dir, 'node_modules', '.bin'), { recursive: true });
    await writeFile(
      path.join(dir, 'package.json'),
      JSON.stringify({ name: 'pull-request', version: '1.0.0', dependencies: { [CLI]: version } }),
    );
    const local = path.join(dir, 'node_modules', ...CLI.split('/'));
    await mkdir(path.join(local, 'bin'), { recursive: true });
    for (const [file, text] of Object.entries(cliPackage(marker('planted-cli-package'))))
      await writeFile(path.join(local, file), text);
    for (const program of ['cadence', 'node', 'git', 'npm']) {
      const shim = path.join(dir, 'node_modules', '.bin', program);
      await writeFile(
        shim,
        `#!/bin/sh\necho ran > ${JSON.stringify(path.join(markers, `planted-bin-${program}`))}\nexit 0\n`,
      );
      await chmod(shim, 0o755);
    }
    return dir;
  }

  /** The runner's environment: a PATH without any node_modules/.bin, a home, the user's npm configuration. */
  async function runnerEnv(name: string): Promise<NodeJS.ProcessEnv> {
    const home = path.join(work.path, `${name}-home`);
    await mkdir(home);
    const userRc = path.join(home, '.npmrc');
    await writeFile(userRc, `registry=${userRegistry.url}\n`);
    // The node running the tests first (the runner's setup-node), then the machine's PATH without any node_modules/.bin.
    const PATH = [
      path.dirname(process.execPath),
      ...(process.env.PATH ?? '').split(path.delimiter).filter((entry) => entry && !entry.includes('node_modules')),
    ].join(path.delimiter);
    return {
      PATH,
      HOME: home,
      LANG: 'C.UTF-8',
      npm_config_userconfig: userRc,
      npm_config_globalconfig: path.join(home, 'global.npmrc'),
      CADENCE_STEP_RECORD: path.join(work.path, `${name}-record.json`),
    };
  }

  async function expectRunFromOutside(
    name: string,
    workspace: string,
    ran: { code: number | null; stderr: string },
    command: string[],
    inputs: Record<string, string>,
  ): Promise<void> {
    expect(ran.code, ran.stderr).to.equal(0);
    expect(await readdir(markers), 'planted programs that ran').to.deep.equal([]);
    expect(requestRegistry.requests, 'requests to the registry the pull request named').to.deep.equal([]);
    expect(
      userRegistry.requests.length > 0 &&
        userRegistry.requests.some((r) => r.includes('@cadence-detect%2fcli') || r.includes('@cadence-detect/cli')),
      'the user\u2019s registry was asked for the CLI',
    ).to.equal(true);
    const record = JSON.parse(await readFile(path.join(work.path, `${name}-record.json`), 'utf8')) as {
      argv: string[];
      cwd: string;
      node: string;
      git: string;
      workspace: string;
      inputs: Record<string, string>;
    };
    expect(record.argv).to.deep.equal(command);
    expect(record.workspace).to.equal(workspace);
    expect(
      path.relative(workspace, record.cwd).startsWith('..'),
      `the CLI ran in ${record.cwd}, inside the checkout`,
    ).to.equal(true);
    expect(record.node).to.equal(process.execPath);
    expect(record.git).to.match(/^git version /);
    // Every input reaches the CLI under its underscore name (a gate wired through a dropped name would never fail).
    expect(record.inputs).to.deep.equal(inputs);
  }

  for (const plant of ['bin', 'npmrc'] as const) {
    const planted =
      plant === 'bin'
        ? 'node_modules/.bin/{cadence,node,git,npm} and its own CLI package'
        : 'an .npmrc naming another registry';
    it(`the Action\u2019s step, in a request that commits ${planted}: the CLI comes from the user\u2019s registry and runs from the runner\u2019s temporary folder`, async () => {
      const name = `github-${plant}`;
      const workspace = await plantedCheckout(name, plant);
      const runnerTemp = path.join(work.path, `${name}-runner-temp`);
      await mkdir(runnerTemp);
      const inputs = {
        path: 'sub',
        'fail-on': 'likely_ai_generated',
        sarif: 'out/cadence.sarif',
        config: 'cadence ci.yaml',
        base: 'main~2',
      };
      const ran = await runActionStep({
        actionPath: root,
        stepId: 'cadence',
        inputs,
        workspace,
        runnerTemp,
        env: await runnerEnv(name),
      });
      await expectRunFromOutside(name, workspace, ran, ['ci', 'github'], {
        INPUT_PATH: 'sub',
        INPUT_FAIL_ON: 'likely_ai_generated',
        INPUT_SARIF: 'out/cadence.sarif',
        INPUT_CONFIG: 'cadence ci.yaml',
        INPUT_BASE: 'main~2',
      });
    });

    it(`the GitLab template\u2019s script, in a request that commits ${planted}: the same, from a fresh temporary folder`, async () => {
      const name = `gitlab-${plant}`;
      const projectDir = await plantedCheckout(name, plant);
      const ran = await runGitlabJob({
        templateFile: path.join(root, 'templates/cadence.gitlab-ci.yml'),
        job: 'cadence',
        projectDir,
        env: { ...(await runnerEnv(name)), CI_PIPELINE_SOURCE: 'merge_request_event' },
      });
      await expectRunFromOutside(name, projectDir, ran, ['ci', 'gitlab', '-o', 'gl-code-quality.json'], {
        CADENCE_FAIL_ON: 'never',
      });
    });

    it(`the Gitea and Forgejo workflow config init writes, in a request that commits ${planted}: the same, from a fresh temporary folder`, async () => {
      const name = `gitea-${plant}`;
      const workspace = await plantedCheckout(name, plant);
      // The workflow as `cadence config init --ci gitea` writes it, in a folder of its own.
      const setup = path.join(work.path, `${name}-setup`);
      await mkdir(setup);
      const init = await runCadence(['config', 'init', '--ci', 'gitea'], { cwd: setup });
      expect(init.code, init.stderr).to.equal(0);
      const ran = await runWorkflowStep({
        workflowFile: path.join(setup, '.gitea', 'workflows', 'cadence.yml'),
        job: 'cadence',
        workspace,
        env: await runnerEnv(name),
      });
      await expectRunFromOutside(name, workspace, ran, ['ci', 'gitea'], { INPUT_FAIL_ON: 'never' });
    });

    it(`the Bitbucket Pipelines step, in a request that commits ${planted}: the same, from a fresh temporary folder`, async () => {
      const name = `bitbucket-${plant}`;
      const cloneDir = await plantedCheckout(name, plant);
      const ran = await runBitbucketStep({
        templateFile: path.join(root, 'templates/bitbucket-pipelines.yml'),
        cloneDir,
        env: await runnerEnv(name),
      });
      await expectRunFromOutside(name, cloneDir, ran, ['ci', 'bitbucket', '-o', 'cadence-insights.json'], {
        CADENCE_FAIL_ON: 'never',
      });
    });
  }
});
