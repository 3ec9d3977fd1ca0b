import { spawn } from 'node:child_process';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parse } from 'yaml';

export interface StepRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

interface ActionStep {
  readonly id?: string;
  readonly env?: Record<string, string>;
  readonly run?: string;
  readonly shell?: string;
  readonly 'working-directory'?: string;
}

export interface ActionStepOptions {
  /** The folder holding action.yml (GITHUB_ACTION_PATH). */
  readonly actionPath: string;
  readonly stepId: string;
  /** The action's inputs by their names (`fail-on`), as a workflow's `with:` gives them. */
  readonly inputs: Record<string, string>;
  readonly workspace: string;
  /** The runner's temporary folder (RUNNER_TEMP, `runner.temp`). */
  readonly runnerTemp: string;
  /** The runner's environment: PATH, HOME, GITHUB_* and whatever else the job sets. */
  readonly env: NodeJS.ProcessEnv;
  readonly timeoutMs?: number;
}

/** `${{ inputs.x }}`, `${{ runner.temp }}`, `${{ github.workspace }}`: the expressions the action's steps use. */
function expression(value: string, options: ActionStepOptions): string {
  return value.replace(/\$\{\{\s*([a-z.-]+)\s*\}\}/g, (whole, name: string) => {
    if (name.startsWith('inputs.')) return options.inputs[name.slice(7)] ?? '';
    if (name === 'runner.temp') return options.runnerTemp;
    if (name === 'github.workspace') return options.workspace;
    throw new Error(`action.yml uses ${whole}, which this runner does not resolve`);
  });
}

/**
 * One `run:` step of a composite action run the way a GitHub runner runs it: the script written to
 * a file and run by `bash --noprofile --norc -eo pipefail`, its `env:` and `working-directory:`
 * resolved (the workspace when none is given), RUNNER_TEMP and GITHUB_ACTION_PATH set.
 */
export async function runActionStep(options: ActionStepOptions): Promise<StepRun> {
  const action = parse(await readFile(path.join(options.actionPath, 'action.yml'), 'utf8')) as {
    runs: { steps: ActionStep[] };
  };
  const step = action.runs.steps.find((s) => s.id === options.stepId);
  if (!step?.run) throw new Error(`action.yml has no run step with id ${options.stepId}`);
  if (step.shell !== 'bash') throw new Error(`the step's shell is ${step.shell}, not bash`);
  const env: NodeJS.ProcessEnv = {
    ...options.env,
    GITHUB_WORKSPACE: options.workspace,
    GITHUB_ACTION_PATH: options.actionPath,
    RUNNER_TEMP: options.runnerTemp,
  };
  for (const [name, value] of Object.entries(step.env ?? {})) env[name] = expression(value, options);
  const cwd = step['working-directory'] ? expression(step['working-directory'], options) : options.workspace;
  const folder = await mkdtemp(path.join(options.runnerTemp, 'step-'));
  const script = path.join(folder, 'step.sh');
  await writeFile(script, step.run);
  return runProgram('bash', ['--noprofile', '--norc', '-eo', 'pipefail', script], cwd, env, options.timeoutMs);
}

export interface GitlabJobOptions {
  readonly templateFile: string;
  readonly job: string;
  /** The checkout (CI_PROJECT_DIR), where GitLab starts the job's script. */
  readonly projectDir: string;
  /** The runner's environment and the pipeline's CI_* variables; the job's `variables:` are added under them. */
  readonly env: NodeJS.ProcessEnv;
  readonly timeoutMs?: number;
}

/**
 * A GitLab job's `script:` run as the shell executor runs it: its lines in one bash (errexit and
 * pipefail), from CI_PROJECT_DIR, with the job's `variables:` set (the pipeline's own win).
 */
export async function runGitlabJob(options: GitlabJobOptions): Promise<StepRun> {
  const template = parse(await readFile(options.templateFile, 'utf8')) as Record<
    string,
    { variables?: Record<string, string>; script?: string[] }
  >;
  const job = template[options.job];
  if (!job?.script) throw new Error(`${options.templateFile} has no job ${options.job} with a script`);
  const env: NodeJS.ProcessEnv = {
    ...job.variables,
    ...options.env,
    GITLAB_CI: 'true',
    CI_PROJECT_DIR: options.projectDir,
  };
  const script = ['set -eo pipefail', ...job.script].join('\n');
  return runProgram('bash', ['--noprofile', '--norc', '-c', script], options.projectDir, env, options.timeoutMs);
}

function runProgram(
  command: string,
  args: string[],
  cwd: string,
  env: NodeJS.ProcessEnv,
  timeoutMs = 240_000,
): Promise<StepRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

export interface BitbucketStepOptions {
  readonly templateFile: string;
  /** The checkout (BITBUCKET_CLONE_DIR), where Pipelines starts the step. */
  readonly cloneDir: string;
  readonly env: NodeJS.ProcessEnv;
  readonly timeoutMs?: number;
}

/**
 * The Bitbucket Pipelines template's pull-request step as Pipelines runs it: its script lines in
 * one bash (`set -e`), from the clone folder, with the variables a pull-request pipeline sets.
 */
export async function runBitbucketStep(options: BitbucketStepOptions): Promise<StepRun> {
  const template = parse(await readFile(options.templateFile, 'utf8')) as {
    pipelines?: { 'pull-requests'?: Record<string, { step?: { script?: string[] } }[]> };
  };
  const script = template.pipelines?.['pull-requests']?.['**']?.[0]?.step?.script;
  if (!script) throw new Error(`${options.templateFile} has no pull-requests '**' step with a script`);
  const env: NodeJS.ProcessEnv = {
    ...options.env,
    CI: 'true',
    BITBUCKET_BUILD_NUMBER: '1',
    BITBUCKET_CLONE_DIR: options.cloneDir,
  };
  return runProgram(
    'bash',
    ['--noprofile', '--norc', '-c', ['set -eo pipefail', ...script].join('\n')],
    options.cloneDir,
    env,
    options.timeoutMs,
  );
}

export interface WorkflowStepOptions {
  /** The workflow file (an Actions workflow: GitHub's syntax, as Gitea and Forgejo run it). */
  readonly workflowFile: string;
  readonly job: string;
  /** The checkout (GITHUB_WORKSPACE), where the runner starts a `run:` step. */
  readonly workspace: string;
  readonly env: NodeJS.ProcessEnv;
  readonly timeoutMs?: number;
}

/**
 * A workflow job's `run:` step as an Actions runner runs it: its script under
 * `bash --noprofile --norc -eo pipefail`, in the workspace, with the step's `env:` over the runner's.
 */
export async function runWorkflowStep(options: WorkflowStepOptions): Promise<StepRun> {
  const workflow = parse(await readFile(options.workflowFile, 'utf8')) as {
    jobs?: Record<string, { steps?: { run?: string; env?: Record<string, unknown> }[] }>;
  };
  const step = workflow.jobs?.[options.job]?.steps?.find((s) => typeof s.run === 'string');
  if (!step?.run) throw new Error(`${options.workflowFile} has no run step in job ${options.job}`);
  const stepEnv = Object.fromEntries(Object.entries(step.env ?? {}).map(([key, value]) => [key, String(value)]));
  return runProgram(
    'bash',
    ['--noprofile', '--norc', '-eo', 'pipefail', '-c', step.run],
    options.workspace,
    { ...options.env, ...stepEnv, CI: 'true', GITHUB_WORKSPACE: options.workspace, GITEA_ACTIONS: 'true' },
    options.timeoutMs,
  );
}
