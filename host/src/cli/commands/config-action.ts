import { existsSync } from 'node:fs';
import { lstat, mkdir, readFile, writeFile } from 'node:fs/promises';
import { parse as parseYaml } from 'yaml';
import path from 'node:path';
import { configInitTemplate, renderConfigYaml, withForgeDefaults } from '@cadence-detect/config';
import { bitbucketAddition, bitbucketPipelines, githubWorkflow, gitlabInclude } from '../ci/ci-files.js';
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

/** The `stages:` a pipeline file declares, or null when it declares none (GitLab's defaults, test among them, apply) or cannot be read. */
function declaredStages(text: string): string[] | null {
  try {
    const document = parseYaml(text) as { stages?: unknown } | null;
    const stages = document?.stages;
    return Array.isArray(stages) && stages.every((s) => typeof s === 'string') ? stages : null;
  } catch {
    return null;
  }
}

/** A stage for the cadence job among a file's own: one that checks (verify, check, lint, review, qa), else the last before a deploy, else the first. */
function pickStage(stages: readonly string[]): string {
  const checking = stages.find((s) => /^(verify|validate|check|checks|lint|review|qa|quality|tests?)$/i.test(s));
  if (checking) return checking;
  const beforeDeploy = stages.findIndex((s) => /deploy|release|publish/i.test(s));
  return beforeDeploy > 0 ? stages[beforeDeploy - 1]! : stages[0]!;
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
 * `cadence config init`: a commented `.cadence.yaml` where the user stands (data only: it never
 * loads plugins); with `--ci`, the forge's CI set-up too (docs/ci.md). Nothing is overwritten
 * without `--force`; adding a CI set-up never touches an existing `.cadence.yaml` (it holds the
 * user's edits, `--force` or not), and an existing .gitlab-ci.yml or bitbucket-pipelines.yml is
 * never rewritten: the lines to add are printed.
 */
export async function initConfig(
  options: { force?: boolean; ci?: 'github' | 'gitlab' | 'bitbucket' },
  io: CliIo,
): Promise<void> {
  const target = path.join(io.cwd, '.cadence.yaml');
  const workflow = options.ci === 'github' ? path.join(io.cwd, '.github', 'workflows', 'cadence.yml') : null;
  const pipelineFile =
    options.ci === 'gitlab'
      ? path.join(io.cwd, '.gitlab-ci.yml')
      : options.ci === 'bitbucket'
        ? path.join(io.cwd, 'bitbucket-pipelines.yml')
        : null;
  for (const file of [target, workflow, pipelineFile]) if (file) await refuseLinks(io.cwd, file);
  const keepConfig = options.ci !== undefined && existsSync(target);
  for (const file of [keepConfig ? null : target, workflow]) {
    if (file && existsSync(file) && !options.force)
      throw new CliError('usage', `${file} exists; use --force to overwrite it`);
  }
  if (keepConfig) io.stdout.write(`kept ${target} as it is\n`);
  else {
    await writeFile(target, configInitTemplate());
    io.stdout.write(`wrote ${target}\n`);
  }
  if (workflow) {
    await mkdir(path.dirname(workflow), { recursive: true });
    await writeFile(workflow, githubWorkflow(HOST_VERSION));
    io.stdout.write(`wrote ${workflow}\n`);
  }
  if (options.ci === 'gitlab') {
    const pipeline = path.join(io.cwd, '.gitlab-ci.yml');
    if (existsSync(pipeline)) {
      // The template's job runs in `test`; a file whose own stages lack it would be refused by GitLab.
      const stages = declaredStages(await readFile(pipeline, 'utf8'));
      const stage = stages && !stages.includes('test') ? pickStage(stages) : null;
      if (stage)
        io.stdout.write(
          `${pipeline} declares stages ${stages!.join(', ')} without test: the cadence job below runs in ${stage} (or add test to stages:)\n`,
        );
      io.stdout.write(`${pipeline} exists: add these lines to it\n${gitlabInclude(HOST_VERSION, stage ?? undefined)}`);
    } else {
      await writeFile(pipeline, gitlabInclude(HOST_VERSION));
      io.stdout.write(`wrote ${pipeline}\n`);
    }
  }
  if (options.ci === 'bitbucket') {
    const pipeline = path.join(io.cwd, 'bitbucket-pipelines.yml');
    if (existsSync(pipeline))
      io.stdout.write(
        `${pipeline} exists: merge these lines into it (clone: depth: full, and the pull-requests pipeline)\n${bitbucketAddition(HOST_VERSION)}`,
      );
    else {
      await writeFile(pipeline, bitbucketPipelines(HOST_VERSION));
      io.stdout.write(`wrote ${pipeline}\n`);
    }
  }
}
