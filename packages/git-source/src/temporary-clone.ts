import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { abortError, CadenceError, redactCredentials } from '@cadence-detect/errors';
import { currentBranch, type ClonedRepository, type OpenOptions } from './clone-options.js';
import { cloneError } from './clone-error.js';
import { directorySize } from './directory-size.js';
import { pinRepository, runGitCommand, unpinRepository } from './git-process.js';
import { ensureCommit, fetchAiNotes, fetchOptionalRefs, openGitSession } from './git-session.js';
import type { RemoteRepository } from './repository-url.js';
import { fetchSquashedRequestHeads } from './request-head-fetch.js';

/** A bare clone of the branch into a temporary folder, removed by `dispose`. */
export async function cloneRemote(locator: RemoteRepository, options: OpenOptions): Promise<ClonedRepository> {
  const session = await openGitSession(locator, options);
  const { url, signal } = session;
  const workDir = await mkdtemp(path.join(tmpdir(), 'cadence-clone-'));
  const dir = path.join(workDir, 'repo.git');
  const dispose = (): Promise<void> => {
    unpinRepository(dir);
    return rm(workDir, { recursive: true, force: true });
  };
  // Ours and bare: git is told where it is rather than finding it.
  pinRepository(dir, dir);
  session.watchSize(workDir);
  try {
    const git = session.git(workDir);
    const args = ['--bare', '--single-branch', '--no-tags'];
    if (options.branch) args.push('--branch', options.branch);
    if (options.depth && options.depth > 0) args.push('--depth', String(options.depth));
    options.logger?.info('cloning', {
      url: redactCredentials(locator.url),
      branch: options.branch ?? null,
      depth: options.depth ?? 0,
    });
    try {
      // `--` ends the options: the URL is never read as one (our URL check already refused a leading "-").
      // simple-git's progress option would append --progress after `--`, where git reads it as a path.
      await git.raw(['clone', ...args, '--', url, dir]);
      options.onProgress?.('clone complete');
    } catch (error) {
      throw cloneError(error, signal, locator.url, options.branch);
    }
    // The watcher polls; a clone that finished between two polls is measured once more here.
    session.checkSize(await directorySize(workDir));
    const head = await runGitCommand(dir, ['rev-parse', '--verify', '--quiet', 'HEAD^{commit}'], signal);
    if (head.code !== 0) throw new CadenceError('ERR_NO_COMMITS_FOUND', { message: `${locator.repo} has no commits` });
    if (options.fetchCommit)
      await ensureCommit(git, dir, options.fetchCommit, signal, locator.url, 'origin', options.fetchRef);
    const fetchedRefs = await fetchOptionalRefs(git, dir, options.optionalRefs ?? [], 'origin', signal);
    await fetchAiNotes(git, dir, signal, options.logger);
    const branch = options.branch ?? (await currentBranch(dir, signal));
    // Last in the session: evidence beside the clone, which never fails it.
    if (options.requestHeads && !(options.depth && options.depth > 0))
      await fetchSquashedRequestHeads(git, dir, 'origin', {
        max: options.requestHeads,
        signal,
        ...(options.signal ? { callerSignal: options.signal } : {}),
        ...(options.logger ? { logger: options.logger } : {}),
      });
    return {
      dir,
      headCommit: head.stdout.trim(),
      branch,
      shallow: existsSync(path.join(dir, 'shallow')),
      fetchedRefs,
      dispose,
    };
  } catch (error) {
    await dispose();
    if (signal.aborted) throw abortError(signal);
    throw error;
  } finally {
    session.close();
  }
}
