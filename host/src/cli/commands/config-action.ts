import { existsSync } from 'node:fs';
import { lstat, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import {
  configInitTemplate,
  defaultConfig,
  pluginSectionTemplates,
  renderConfigYaml,
  withForgeDefaults,
} from '@cadence-detect/config';
import type { CiSetupFile } from '@cadence-detect/plugin-sdk';
import { HOST_VERSION } from '../host-version.js';
import { CliError } from '../exit-codes.js';
import type { CliIo } from '../io.js';
import { loadCliConfig } from '../load-config.js';
import { loadPluginModules } from '../../plugins.js';

/**
 * `cadence config`: the effective configuration as YAML, secrets masked. The plugins load first:
 * their options come from the environment too, and their schemas say which are secrets; the
 * sections of a plugin that does not load are masked whole. Options are not checked here: the
 * configuration prints even when a plugin would refuse its options (the commands that run say so).
 */
export async function printConfig(options: { config?: string }, io: CliIo): Promise<void> {
  const { config: given, files, pluginBase } = await loadCliConfig(io, options.config);
  const { config: effective, sections } = await loadPluginModules({
    config: given,
    env: io.env,
    pluginBase,
    throwOnRequiredFailure: false,
  });
  io.stdout.write(
    `# effective configuration${files.length > 0 ? ` (${files.length > 1 ? 'files' : 'file'}: ${files.join(', ')})` : ' (no configuration file)'}\n`,
  );
  io.stdout.write(renderConfigYaml(withForgeDefaults(effective, sections), sections));
}

/**
 * Refuses to write through a link: `file` and every folder between `root` and it must be no link
 * (a committed `.cadence.yaml` link would aim the write anywhere, a dangling one create a file
 * outside the repository, a linked `.github/workflows` the same for the workflow).
 */
async function refuseLinks(root: string, file: string): Promise<void> {
  const parts = path.relative(root, file).split(path.sep);
  for (let count = 1; count <= parts.length; count++) {
    const at = path.join(root, ...parts.slice(0, count));
    const stat = await lstat(at).catch(() => null);
    if (stat?.isSymbolicLink())
      throw new CliError(
        'usage',
        `${at} is a link: config init writes only plain files and folders (remove the link, or write the file yourself)`,
      );
    if (!stat) return;
  }
}

/**
 * `cadence config init`: a commented `.cadence.yaml` where the user stands (data only); with
 * `--ci <forge>`, the CI set-up the forge plugin's runner gives (docs/ci.md), read from the
 * installed plugins, never the working directory's. Nothing is overwritten without `--force`;
 * adding a CI set-up never touches an existing `.cadence.yaml` (it holds the user's edits, `--force`
 * or not), and a file the runner says is added to (a pipeline) is never rewritten: the lines to
 * add are printed.
 */
export async function initConfig(options: { force?: boolean; ci?: string }, io: CliIo): Promise<void> {
  const target = path.join(io.cwd, '.cadence.yaml');
  const setup = options.ci === undefined ? [] : await ciSetupFiles(options.ci);
  const files = setup.map((file) => ({ file, at: path.join(io.cwd, ...file.path.split('/')) }));
  for (const at of [target, ...files.map((f) => f.at)]) await refuseLinks(io.cwd, at);
  const keepConfig = options.ci !== undefined && existsSync(target);
  const replaced = [keepConfig ? null : target, ...files.filter((f) => !f.file.existing).map((f) => f.at)];
  for (const file of replaced) {
    if (file && existsSync(file) && !options.force)
      throw new CliError('usage', `${file} exists; use --force to overwrite it`);
  }
  if (keepConfig) io.stdout.write(`kept ${target} as it is\n`);
  else {
    await writeFile(target, configInitTemplate(await ownedSectionTemplates()));
    io.stdout.write(`wrote ${target}\n`);
  }
  for (const { file, at } of files) {
    if (file.existing && existsSync(at)) {
      const addition = file.existing(await readFile(at, 'utf8'));
      io.stdout.write(`${at} exists: ${addition.advice}\n${addition.lines}`);
      continue;
    }
    await mkdir(path.dirname(at), { recursive: true });
    await writeFile(at, file.content);
    io.stdout.write(`wrote ${at}\n`);
  }
}

/**
 * The sections installed plugins own at the top level (the AI plugin's `ai`), from their own schemas.
 * The plugins installed beside the CLI load, with the default configuration: the file being replaced
 * (which may not parse) and the environment play no part; a plugin that fails to load leaves its
 * section out.
 */
async function ownedSectionTemplates(): Promise<string[]> {
  try {
    const { sections } = await loadPluginModules({
      config: defaultConfig(),
      env: {},
      pluginBase: null,
      throwOnRequiredFailure: false,
    });
    return pluginSectionTemplates(sections);
  } catch {
    // The template never needed a plugin: without them, each section names its package instead.
    return pluginSectionTemplates([]);
  }
}

/** The forge runner's set-up files, at this CLI's version; a forge without a runner is refused before anything is written. */
async function ciSetupFiles(forge: string): Promise<readonly CiSetupFile[]> {
  const { installedCiRunners, missingCiRunner } = await import('../ci/ci-runners.js');
  const installed = await installedCiRunners();
  const runner = installed.runners.get(forge);
  if (!runner) throw missingCiRunner(forge, installed, `cadence config init --ci ${forge}`);
  const files = runner.setupFiles?.(HOST_VERSION) ?? [];
  for (const file of files)
    if (!/^(?!\/)(?:[\w.-]+\/)*[\w.-]+$/.test(file.path) || file.path.split('/').includes('..'))
      throw new CliError(
        'failed',
        `the ${forge} plugin names a set-up file outside the folder: ${JSON.stringify(file.path)}`,
      );
  if (files.length === 0) throw new CliError('usage', `the ${forge} plugin has no CI set-up to write`);
  return files;
}
