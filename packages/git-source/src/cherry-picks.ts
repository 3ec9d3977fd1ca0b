import { spawn } from 'node:child_process';
import { abortError } from '@cadence-detect/errors';
import type { CommitRecord } from '@cadence-detect/plugin-sdk';
import {
  DEFAULT_GIT_BOUNDS,
  gitEnvironment,
  gitInvocation,
  memoryBoundError,
  reachedMemoryBound,
  type GitBounds,
  type GitInvocation,
} from './git-process.js';

/** Candidates compared at most: a history of thousands of same-second copies says nothing more. */
const MAX_CANDIDATES = 5_000;

/**
 * The commits that copy an earlier one: the same author, the same author date to the second and
 * the same patch id (`git patch-id --stable`), as `git cherry-pick` and a rebase leave them. Such a
 * copy is not a new act of authorship: its author wrote nothing in the "0 s" since the original.
 * Only commits sharing an author and an author date are compared, so a history without any costs
 * no git process. Returns the copies' hashes (the earliest of each group is the original).
 */
export async function copiedCommits(
  dir: string,
  commits: readonly CommitRecord[],
  signal?: AbortSignal,
  bounds: GitBounds = DEFAULT_GIT_BOUNDS,
): Promise<Set<string>> {
  const groups = new Map<string, CommitRecord[]>();
  for (const commit of commits) {
    if (commit.isMerge || commit.isBoundary) continue;
    const key = `${commit.authorEmail.toLowerCase()} ${commit.authorTime}`;
    const group = groups.get(key);
    if (group) group.push(commit);
    else groups.set(key, [commit]);
  }
  const candidates = [...groups.values()]
    .filter((group) => group.length > 1)
    .flat()
    .slice(0, MAX_CANDIDATES);
  const copies = new Set<string>();
  if (candidates.length === 0) return copies;
  const patchIds = await readPatchIds(
    dir,
    candidates.map((c) => c.hash),
    bounds,
    signal,
  );
  for (const group of groups.values()) {
    if (group.length < 2) continue;
    const seen = new Set<string>();
    // Oldest first as the history lists them: the first of a patch id is the original.
    for (const commit of group) {
      const id = patchIds.get(commit.hash);
      if (id === undefined) continue;
      if (seen.has(id)) copies.add(commit.hash);
      else seen.add(id);
    }
  }
  return copies;
}

/**
 * The copy check's diff, under the history read's bounds: a blob above `maxDiffBlobBytes` is diffed
 * as binary by its size alone (its patch names the blob, so two different blobs still differ) and
 * the child runs under the address-space ceiling. Unbounded, two same-second commits that each add
 * a blob of millions of short lines made git read and line-diff them whole.
 */
export function patchDiffInvocation(dir: string, bounds: GitBounds): GitInvocation {
  return gitInvocation(dir, ['diff-tree', '--stdin', '-p', '--no-textconv', '--no-ext-diff', '--no-color'], bounds);
}

/** What the copy check keeps of the diff's stderr: enough for git's last words. */
const STDERR_KEPT = 4096;

/**
 * `git diff-tree --stdin -p` of the commits piped into `git patch-id --stable`: each commit's patch
 * id (a commit that changes nothing has none). Two processes, no shell. A diff stopped by its
 * memory ceiling fails the read (ERR_REPOSITORY_TOO_LARGE), as the history's own log does; a diff
 * that fails otherwise (a damaged repository) finds no copies.
 */
function readPatchIds(
  dir: string,
  hashes: readonly string[],
  bounds: GitBounds,
  signal?: AbortSignal,
): Promise<Map<string, string>> {
  return new Promise((resolve, reject) => {
    const diff = patchDiffInvocation(dir, bounds);
    const patch = gitInvocation(dir, ['patch-id', '--stable']);
    const env = gitEnvironment();
    const differ = spawn(diff.command, diff.args, { cwd: diff.cwd, stdio: ['pipe', 'pipe', 'pipe'], env });
    let stderr = '';
    differ.stderr.on('data', (chunk: Buffer) => {
      if (stderr.length < STDERR_KEPT) stderr += chunk.toString('utf8');
    });
    const differExit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((settle) =>
      differ.on('close', (code, exitSignal) => settle({ code, signal: exitSignal })),
    );
    const identifier = spawn(patch.command, patch.args, { cwd: patch.cwd, stdio: ['pipe', 'pipe', 'ignore'], env });
    const stop = (): void => {
      differ.kill('SIGKILL');
      identifier.kill('SIGKILL');
    };
    signal?.addEventListener('abort', stop, { once: true });
    differ.stdout.pipe(identifier.stdin);
    identifier.stdin.on('error', () => undefined);
    differ.stdin.on('error', () => undefined);
    differ.on('error', reject);
    identifier.on('error', reject);
    const chunks: Buffer[] = [];
    identifier.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    identifier.on('close', () => void differExit.then((exit) => settle(exit)));
    const settle = (exit: { code: number | null; signal: NodeJS.Signals | null }): void => {
      signal?.removeEventListener('abort', stop);
      if (signal?.aborted) {
        reject(abortError(signal));
        return;
      }
      if (exit.code !== 0) {
        if (reachedMemoryBound(exit.signal, stderr)) reject(memoryBoundError('git diff-tree (the copy check)', bounds));
        else resolve(new Map());
        return;
      }
      const ids = new Map<string, string>();
      for (const line of Buffer.concat(chunks).toString('utf8').split('\n')) {
        const [id, commit] = line.trim().split(' ');
        if (id && commit) ids.set(commit, id);
      }
      resolve(ids);
    };
    differ.stdin.end(hashes.map((hash) => `${hash}\n`).join(''));
  });
}
