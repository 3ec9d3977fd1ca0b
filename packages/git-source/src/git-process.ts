import { spawn } from 'node:child_process';

export interface GitResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs a short git command (argument array, no shell) and collects its output; killed on abort. */
export function runGitCommand(cwd: string, args: readonly string[], signal?: AbortSignal): Promise<GitResult> {
  return new Promise((resolve, reject) => {
    const child = spawn('git', args, { cwd, stdio: ['ignore', 'pipe', 'pipe'], signal, env: gitEnvironment() });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    child.on('error', reject);
    child.on('close', (code) =>
      resolve({ code, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') }),
    );
  });
}

/**
 * The environment of git processes we spawn ourselves: no pager, no prompts, and none of the
 * caller's GIT_* variables, which could point git at other repositories or commands.
 */
export function gitEnvironment(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!key.toUpperCase().startsWith('GIT_')) env[key] = value;
  }
  env.GIT_TERMINAL_PROMPT = '0';
  env.GIT_PAGER = 'cat';
  env.LC_ALL = 'C';
  return env;
}

/** Variables that make git (or ssh) run a program of the caller's choosing. */
const PROGRAM_VARIABLES = new Set(['EDITOR', 'VISUAL', 'PAGER', 'SSH_ASKPASS', 'PREFIX']);

/**
 * The environment of a clone or fetch run through simple-git: the caller's environment without GIT_*
 * variables or programs, plus our own GIT_* settings (`own`), which are the only guarded names passed.
 */
export function cloneEnvironment(own: Record<string, string>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    const upper = key.toUpperCase();
    if (value !== undefined && !upper.startsWith('GIT_') && !PROGRAM_VARIABLES.has(upper)) env[key] = value;
  }
  return { ...env, ...own };
}
