import { spawn } from 'node:child_process';
import { gitBinary, gitEnvironment } from './git-process.js';
import { parseRepositoryUrl } from './repository-url.js';

/**
 * Whether a URL answers as a git repository (`git ls-remote`), within `timeoutMs`: how the CLI
 * tells a repository from a website when an https URL could be either (docs/cli.md).
 */
export async function answersAsRepository(url: string, timeoutMs: number): Promise<boolean> {
  const locator = parseRepositoryUrl(url, { allowLocalPaths: false });
  if (locator.kind !== 'remote') return false;
  return new Promise((resolve) => {
    const child = spawn(gitBinary(), ['-c', 'http.followRedirects=false', 'ls-remote', '--heads', '--', locator.url], {
      stdio: 'ignore',
      env: gitEnvironment(),
      timeout: timeoutMs,
      killSignal: 'SIGKILL',
    });
    child.on('error', () => resolve(false));
    child.on('close', (code) => resolve(code === 0));
  });
}
