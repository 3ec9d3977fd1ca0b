import { runLight } from './light-spawner.js';

/** Runs git with arguments (never a shell string) and returns stdout; a non-zero exit rejects with its stderr. */
export async function runGit(
  cwd: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv = {},
  input?: string,
): Promise<string> {
  const ran = await runLight('git', args, {
    cwd,
    env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_TERMINAL_PROMPT: '0', ...env },
    ...(input === undefined ? {} : { input }),
  });
  if (ran.code !== 0) {
    const error = new Error(`Command failed: git ${args.join(' ')}\n${ran.stderr}`);
    throw Object.assign(error, { code: ran.code, signal: ran.signal, stdout: ran.stdout, stderr: ran.stderr });
  }
  return ran.stdout;
}
