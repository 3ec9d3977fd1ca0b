import { existsSync } from 'node:fs';
import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { abortError, CadenceError, redactCredentials } from '@cadence-detect/errors';
import { checkBranchName, type ClonedRepository, type OpenOptions } from './clone-options.js';
import { cloneError } from './clone-error.js';
import { objectBytes } from './directory-size.js';
import { pinRepository, runGitCommand } from './git-process.js';
import type { SimpleGit } from 'simple-git';
import {
  ensureCommit,
  fetchOptionalRefs,
  NOTES_REFSPECS,
  openGitSession,
  settledValue,
  type GitSession,
} from './git-session.js';
import { discardMirror, holdMirror, mirrorKey, type MirrorOptions } from './mirrors.js';
import { mirrorIsCurrent, mirrorRefs, remoteHeads } from './remote-heads.js';
import type { RemoteRepository } from './repository-url.js';
import { fetchSquashedRequestHeads } from './request-head-fetch.js';

/**
 * Fetches into the repository's mirror (cloning it the first time) under its cross-process lock,
 * held until the job disposes of it. The clone's hardening applies unchanged (the pinned address,
 * the one allowed protocol, no redirects, the size and time limits). The URL is passed to every
 * fetch and never stored, so the mirror's config and FETCH_HEAD hold no credential.
 */
export async function openMirrored(
  locator: RemoteRepository,
  options: OpenOptions,
  mirrors: MirrorOptions,
): Promise<ClonedRepository> {
  const session = await openGitSession(locator, options);
  const { signal } = session;
  await mkdir(mirrors.dir, { recursive: true, mode: 0o700 });
  let held: Awaited<ReturnType<typeof holdMirror>> | null = null;
  let fresh = false;
  try {
    held = await holdMirror(mirrors, mirrorKey(locator.url), signal, () => {
      // Said once: a job can wait here for as long as another one fetches.
      options.logger?.info('waiting for the mirror another job holds', { url: redactCredentials(locator.url) });
      options.onProgress?.('Waiting for the repository mirror another analysis holds');
    });
    const dir = held.dir;
    fresh = await createIfNew(mirrors, dir, signal);
    // Ours and bare: git is told where it is rather than finding it.
    pinRepository(dir, dir);
    session.watchSize(dir);
    // gc.auto=0: no fetch repacks or prunes a mirror another job may be reading. A new mirror's
    // fetch keeps what it receives as one pack, as git clone does (fetch.unpackLimit=1): below 100
    // objects git would write each one loose, compressing every blob again, and a hostile
    // repository's 560 MB blob of one byte (a megabyte as sent) cost seconds of CPU to write loose.
    const git = session.git(dir, fresh ? ['gc.auto=0', 'fetch.unpackLimit=1'] : ['gc.auto=0']);
    const { branch, current } = await fetchBranch(git, dir, session, locator, options, fresh);
    const head = await settleMirror(git, dir, session, locator, options, { branch, current });
    const fetchedRefs = await fetchEvidence(git, dir, session, options);
    return mirrored(held, { dir, headCommit: head, branch, fetchedRefs });
  } catch (error) {
    if (held) {
      if (fresh) await discardMirror(held.dir);
      await held.release();
    }
    if (signal.aborted) throw abortError(signal);
    throw error;
  } finally {
    session.close();
  }
}

/** A new mirror is an empty bare repository: made here, and true; an existing one, false. */
async function createIfNew(mirrors: MirrorOptions, dir: string, signal: AbortSignal): Promise<boolean> {
  if (existsSync(path.join(dir, 'HEAD'))) return false;
  const init = await runGitCommand(mirrors.dir, ['init', '--bare', '--quiet', '--', dir], signal);
  if (init.code !== 0)
    throw new CadenceError('ERR_GIT_CLONE_FAILED', {
      message: `Cannot create a repository mirror: ${init.stderr.trim()}`,
    });
  return true;
}

/**
 * Names the branch (the remote's HEAD when none was asked for) and fetches it with the notes,
 * unless the mirror already holds everything the remote has: then `current` is the branch's commit.
 */
async function fetchBranch(
  git: SimpleGit,
  dir: string,
  session: GitSession,
  locator: RemoteRepository,
  options: OpenOptions,
  fresh: boolean,
): Promise<{ branch: string; current: string | null }> {
  const { url, signal } = session;
  options.logger?.info(fresh ? 'cloning into a new mirror' : 'fetching into the mirror', {
    url: redactCredentials(locator.url),
    branch: options.branch ?? null,
  });
  let branch = options.branch;
  try {
    // One round trip names the branch and, for a mirror, tells whether anything is new; the
    // mirror's own refs are read meanwhile.
    const local = fresh ? null : mirrorRefs(dir, signal);
    // Marked handled now: awaited below, where its failure is dealt with.
    local?.catch(() => undefined);
    const heads = branch && fresh ? null : await remoteHeads(git, url, branch);
    if (!branch) {
      branch = heads?.headBranch;
      if (!branch) throw new CadenceError('ERR_NO_COMMITS_FOUND', { message: `${locator.repo} has no commits` });
      checkBranchName(branch);
    }
    const current = local && heads ? mirrorIsCurrent(await local, heads, branch) : null;
    if (current) {
      options.logger?.info('the mirror is current', { url: redactCredentials(locator.url), branch });
    } else {
      // The AI notes and Agent Trace notes come in the same fetch: a pattern refspec matching nothing is no error, and a
      // push's job saves the round trip of a second fetch.
      await git.raw([
        'fetch',
        '--no-tags',
        '--no-write-fetch-head',
        '--',
        url,
        `+refs/heads/${branch}:refs/heads/${branch}`,
        ...NOTES_REFSPECS,
      ]);
    }
    options.onProgress?.(fresh ? 'clone complete' : 'fetch complete');
    return { branch, current };
  } catch (error) {
    if (error instanceof CadenceError) throw error;
    throw cloneError(error, signal, locator.url, branch);
  }
}

/**
 * The mirror measured, its branch's head read and the pushed commit made sure of: three git
 * processes side by side (git's own count of the objects, since a walk of a large mirror's folder
 * would cost more than the fetch), all answered before the mirror is used. An unchanged mirror was
 * measured when it last changed, and its head is the one just read. HEAD names the branch.
 */
async function settleMirror(
  git: SimpleGit,
  dir: string,
  session: GitSession,
  locator: RemoteRepository,
  options: OpenOptions,
  fetched: { readonly branch: string; readonly current: string | null },
): Promise<string> {
  const { url, signal } = session;
  const { branch, current } = fetched;
  const [sized, headed, ensured] = await Promise.allSettled([
    current ? 0 : objectBytes(dir, signal),
    current
      ? { code: 0, stdout: current, stderr: '' }
      : runGitCommand(dir, ['rev-parse', '--verify', '--quiet', `refs/heads/${branch}^{commit}`], signal),
    options.fetchCommit
      ? ensureCommit(git, dir, options.fetchCommit, signal, locator.url, url, options.fetchRef)
      : null,
  ]);
  // Judged in the order they were once asked: size, then the branch, then the pushed commit.
  session.checkSize(settledValue(sized));
  const head = settledValue(headed);
  if (head.code !== 0) throw new CadenceError('ERR_NO_COMMITS_FOUND', { message: `${locator.repo} has no commits` });
  settledValue(ensured);
  if ((await readFile(path.join(dir, 'HEAD'), 'utf8').catch(() => '')).trim() !== `ref: refs/heads/${branch}`) {
    await runGitCommand(dir, ['symbolic-ref', 'HEAD', `refs/heads/${branch}`], signal);
  }
  return head.stdout.trim();
}

/** The optional refs asked for, then (last in the session) the squashed requests' heads: evidence beside the mirror, which never fails it. */
async function fetchEvidence(
  git: SimpleGit,
  dir: string,
  session: GitSession,
  options: OpenOptions,
): Promise<string[]> {
  const { url, signal } = session;
  const fetchedRefs = await fetchOptionalRefs(git, dir, options.optionalRefs ?? [], url, signal);
  if (options.requestHeads && !(options.depth && options.depth > 0))
    await fetchSquashedRequestHeads(git, dir, url, {
      max: options.requestHeads,
      signal,
      ...(options.signal ? { callerSignal: options.signal } : {}),
      ...(options.logger ? { logger: options.logger } : {}),
    });
  return fetchedRefs;
}

/** The opened mirror: released (once) when the job disposes of it. */
function mirrored(
  held: { release(): Promise<void> },
  opened: Pick<ClonedRepository, 'dir' | 'headCommit' | 'branch' | 'fetchedRefs'>,
): ClonedRepository {
  let released = false;
  return {
    ...opened,
    shallow: false,
    mirrored: true,
    dispose: async () => {
      if (released) return;
      released = true;
      await held.release();
    },
  };
}
