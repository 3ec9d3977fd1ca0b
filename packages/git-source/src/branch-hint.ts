import { closestName } from '@cadence-detect/errors';
import { runGitCommand } from './git-process.js';

const LISTED = 10;

/** "Branch not found: mian (did you mean main? branches: main, dev)": the branches a local repository has. */
export async function branchNotFoundMessage(dir: string, branch: string, signal?: AbortSignal): Promise<string> {
  const listed = await runGitCommand(
    dir,
    ['for-each-ref', '--format=%(refname:short)', '--count=200', 'refs/heads/'],
    signal,
  ).catch(() => null);
  const branches = listed && listed.code === 0 ? listed.stdout.split('\n').filter(Boolean) : [];
  if (branches.length === 0) return `Branch not found: ${branch} (the repository has no branches)`;
  const suggestion = closestName(branch, branches);
  const shown =
    branches.slice(0, LISTED).join(', ') + (branches.length > LISTED ? `, and ${branches.length - LISTED} more` : '');
  return `Branch not found: ${branch} (${suggestion ? `did you mean ${suggestion}? ` : ''}branches: ${shown})`;
}
