import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { simpleGit } from 'simple-git';
import { abortError, CadenceError, redactCredentials } from '@cadence-detect/errors';
import { resolveAndCheck, type NetworkPolicy } from '@cadence-detect/network-guard';
import type { PluginLogger } from '@cadence-detect/plugin-sdk';
import { branchNotFoundMessage } from './branch-hint.js';
import { directorySize, objectBytes, watchDirectorySize } from './directory-size.js';
import { cloneEnvironment, runGitCommand } from './git-process.js';
import { AI_NOTES_REF } from './notes.js';
import { cloneError } from './clone-error.js';
import { AGENT_TRACE_NOTES_REF } from './line-records.js';

/** The notes a clone brings with the branch: git-ai's authorship logs and Agent Trace records. */
const NOTES_REFSPECS = [`+${AI_NOTES_REF}*:${AI_NOTES_REF}*`, `+${AGENT_TRACE_NOTES_REF}*:${AGENT_TRACE_NOTES_REF}*`];
import { mirrorIsCurrent, mirrorRefs, remoteHeads } from './remote-heads.js';
import { discardMirror, holdMirror, mirrorKey, type MirrorOptions } from './mirrors.js';
import { atLeast, HTTP_PINNING_SINCE, installedGitVersion } from './git-version.js';
import { serializeRemote, type RemoteRepository, type RepositoryLocator } from './repository-url.js';
import { isFullCommitId } from '@cadence-detect/plugin-sdk';

export interface OpenOptions {
  readonly branch?: string;
  /** 0: full history; n > 0: a shallow clone of the last n commits (GIT_DEPTH). */
  readonly depth?: number;
  readonly timeoutMs: number;
  readonly maxSizeBytes: number;
  readonly signal?: AbortSignal;
  /** null: no network guard (the CLI). */
  readonly policy: NetworkPolicy | null;
  readonly logger?: PluginLogger;
  readonly onProgress?: (message: string) => void;
  /** A commit the analysis needs (a push's `after`): fetched when the clone lacks it. */
  readonly fetchCommit?: string;
  /**
   * Where that commit lives when no branch holds it: a pull request's `refs/pull/N/head` or a
   * merge request's `refs/merge-requests/N/head` (so a fork's commits come without the fork's URL).
   */
  readonly fetchRef?: string;
  /** Request refs fetched too if the remote still has them (a squashed request's original commits); a missing one is no error. */
  readonly optionalRefs?: readonly string[];
  /**
   * Keep a bare mirror per repository and fetch into it instead of cloning (a full history only:
   * a shallow request clones as before). Null or absent: a fresh clone per job.
   */
  readonly mirrors?: MirrorOptions | null;
  /** A header git sends to URLs under `urlPrefix` (a forge token for a private clone: `cadence scan`). */
  readonly httpAuthorization?: { readonly urlPrefix: string; readonly header: string };
}

export interface ClonedRepository {
  /** Where git commands run: the bare clone, or the local repository. */
  readonly dir: string;
  readonly headCommit: string;
  readonly branch: string | null;
  readonly shallow: boolean;
  /** A mirror kept between jobs (its history can be cached: see HistoryCache). */
  readonly mirrored?: boolean;
  /** Which of `optionalRefs` were fetched. */
  readonly fetchedRefs?: readonly string[];
  /** Removes the clone (nothing for a local repository). Safe to call twice. */
  dispose(): Promise<void>;
}

/** The only refs a job may name: a request's head on GitHub or GitLab. */
export const REQUEST_REF = /^refs\/(?:pull\/[1-9]\d{0,9}\/head|merge-requests\/[1-9]\d{0,9}\/head)$/;

/** Opens a repository for reading: clones a remote into a temporary folder, or reads a local one in place. */
export function openRepository(locator: RepositoryLocator, options: OpenOptions): Promise<ClonedRepository> {
  if (options.branch !== undefined) checkBranchName(options.branch);
  if (options.fetchCommit !== undefined && !isFullCommitId(options.fetchCommit, { anyCase: true })) {
    throw new CadenceError('ERR_INVALID_SOURCE', {
      message: `Not a commit id: ${JSON.stringify(options.fetchCommit)}`,
    });
  }
  for (const ref of options.optionalRefs ?? []) {
    if (!REQUEST_REF.test(ref))
      throw new CadenceError('ERR_INVALID_SOURCE', {
        message: `Not a pull or merge request ref: ${JSON.stringify(ref.slice(0, 100))}`,
        details: { field: 'ref', reason: 'not a request ref' },
      });
  }
  if (options.fetchRef !== undefined && !REQUEST_REF.test(options.fetchRef)) {
    throw new CadenceError('ERR_INVALID_SOURCE', {
      message: `Not a pull or merge request ref: ${JSON.stringify(options.fetchRef.slice(0, 100))}`,
      details: { field: 'ref', reason: 'not a request ref' },
    });
  }
  if (locator.kind === 'local') return openLocal(locator.path, options);
  if (options.mirrors && !(options.depth && options.depth > 0)) return openMirrored(locator, options, options.mirrors);
  return cloneRemote(locator, options);
}

/** Refuses a branch git could read as an option or a revision expression (ERR_INVALID_SOURCE, field `branch`). */
export function checkBranchName(branch: string): void {
  // eslint-disable-next-line no-control-regex
  if (!branch || branch.startsWith('-') || /[\s\x00-\x1f\x7f~^:?*[\\]|\.\.|@\{/.test(branch) || branch.length > 255) {
    throw new CadenceError('ERR_INVALID_SOURCE', {
      message: `Not a valid branch name: ${JSON.stringify(branch.slice(0, 100))}`,
      details: { field: 'branch', reason: 'not a valid branch name' },
    });
  }
}

async function openLocal(dir: string, options: OpenOptions): Promise<ClonedRepository> {
  const isRepo = await runGitCommand(dir, ['rev-parse', '--git-dir'], options.signal);
  if (isRepo.code !== 0)
    throw new CadenceError('ERR_NOT_A_REPOSITORY', {
      message: `Not a git repository: ${dir} (git finds no repository there or above it: name the repository's folder)`,
    });
  const rev = options.branch ?? 'HEAD';
  const head = await runGitCommand(
    dir,
    ['rev-parse', '--verify', '--quiet', '--end-of-options', `${rev}^{commit}`],
    options.signal,
  );
  if (head.code !== 0) {
    throw options.branch
      ? new CadenceError('ERR_BRANCH_NOT_FOUND', {
          message: await branchNotFoundMessage(dir, options.branch, options.signal),
        })
      : new CadenceError('ERR_NO_COMMITS_FOUND', { message: `The repository at ${dir} has no commits` });
  }
  const branch = options.branch ?? (await currentBranch(dir, options.signal));
  const shallow = await runGitCommand(dir, ['rev-parse', '--is-shallow-repository'], options.signal);
  return {
    dir,
    headCommit: head.stdout.trim(),
    branch,
    shallow: shallow.stdout.trim() === 'true',
    dispose: async () => undefined,
  };
}

async function currentBranch(dir: string, signal?: AbortSignal): Promise<string | null> {
  const result = await runGitCommand(dir, ['symbolic-ref', '--short', '-q', 'HEAD'], signal);
  return result.code === 0 ? result.stdout.trim() || null : null;
}

async function cloneRemote(locator: RemoteRepository, options: OpenOptions): Promise<ClonedRepository> {
  const { url, config, env } = await pinnedTarget(locator, options);
  const workDir = await mkdtemp(path.join(tmpdir(), 'cadence-clone-'));
  const dir = path.join(workDir, 'repo.git');
  const dispose = (): Promise<void> => rm(workDir, { recursive: true, force: true });
  const stop = new AbortController();
  const signal = options.signal ? AbortSignal.any([options.signal, stop.signal]) : stop.signal;
  const timer = setTimeout(
    () =>
      stop.abort(
        new CadenceError('ERR_GIT_CLONE_TIMEOUT', {
          message: `Cloning took longer than ${Math.round(options.timeoutMs / 1000)} s`,
        }),
      ),
    options.timeoutMs,
  );
  const stopWatching = watchDirectorySize(workDir, options.maxSizeBytes, (bytes) =>
    stop.abort(
      new CadenceError('ERR_REPOSITORY_TOO_LARGE', {
        message: `The clone passed ${Math.round(options.maxSizeBytes / 1048576)} MB (${Math.round(bytes / 1048576)} MB so far)`,
      }),
    ),
  );
  try {
    const git = simpleGit({
      baseDir: workDir,
      abort: signal,
      // Ours, not the caller's: redirects could lead a guarded clone to another host.
      config: ['http.followRedirects=false', ...config],
      // simple-git refuses guarded variables unless named: the only ones passed are ours (cloneEnvironment),
      // GIT_CONFIG_* only for a forge token as a header (authorizationEnvironment).
      allowEnvironment: Object.keys(env),
      unsafe: {
        allowUnsafeSshCommand: env.GIT_SSH_COMMAND !== undefined,
        allowUnsafeConfigEnvCount: env.GIT_CONFIG_COUNT !== undefined,
      },
    }).env(cloneEnvironment(env));
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
      throw cloneError(error, signal, locator.url);
    }
    // The watcher polls; a clone that finished between two polls is measured once more here.
    const finalSize = await directorySize(workDir);
    if (finalSize > options.maxSizeBytes) {
      throw new CadenceError('ERR_REPOSITORY_TOO_LARGE', {
        message: `The clone is ${Math.round(finalSize / 1048576)} MB, above ${Math.round(options.maxSizeBytes / 1048576)} MB`,
      });
    }
    const head = await runGitCommand(dir, ['rev-parse', '--verify', '--quiet', 'HEAD^{commit}'], signal);
    if (head.code !== 0) throw new CadenceError('ERR_NO_COMMITS_FOUND', { message: `${locator.repo} has no commits` });
    if (options.fetchCommit)
      await ensureCommit(git, dir, options.fetchCommit, signal, locator.url, 'origin', options.fetchRef);
    const fetchedRefs = await fetchOptionalRefs(git, dir, options.optionalRefs ?? [], 'origin', signal);
    await fetchAiNotes(git, dir, signal, options.logger);
    const branch = options.branch ?? (await currentBranch(dir, signal));
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
    clearTimeout(timer);
    stopWatching();
  }
}

/**
 * Fetches into the repository's mirror (cloning it the first time) under its cross-process lock,
 * held until the job disposes of it. The clone's hardening applies unchanged (the pinned address,
 * the one allowed protocol, no redirects, the size and time limits). The URL is passed to every
 * fetch and never stored, so the mirror's config and FETCH_HEAD hold no credential.
 */
async function openMirrored(
  locator: RemoteRepository,
  options: OpenOptions,
  mirrors: MirrorOptions,
): Promise<ClonedRepository> {
  const { url, config, env } = await pinnedTarget(locator, options);
  await mkdir(mirrors.dir, { recursive: true, mode: 0o700 });
  const stop = new AbortController();
  const signal = options.signal ? AbortSignal.any([options.signal, stop.signal]) : stop.signal;
  const timer = setTimeout(
    () =>
      stop.abort(
        new CadenceError('ERR_GIT_CLONE_TIMEOUT', {
          message: `Cloning took longer than ${Math.round(options.timeoutMs / 1000)} s`,
        }),
      ),
    options.timeoutMs,
  );
  let held: Awaited<ReturnType<typeof holdMirror>> | null = null;
  let fresh = false;
  let stopWatching = (): void => undefined;
  try {
    held = await holdMirror(mirrors, mirrorKey(locator.url), signal);
    const dir = held.dir;
    fresh = !existsSync(path.join(dir, 'HEAD'));
    if (fresh) {
      const init = await runGitCommand(mirrors.dir, ['init', '--bare', '--quiet', '--', dir], signal);
      if (init.code !== 0)
        throw new CadenceError('ERR_GIT_CLONE_FAILED', {
          message: `Cannot create a repository mirror: ${init.stderr.trim()}`,
        });
    }
    stopWatching = watchDirectorySize(dir, options.maxSizeBytes, (bytes) =>
      stop.abort(
        new CadenceError('ERR_REPOSITORY_TOO_LARGE', {
          message: `The clone passed ${Math.round(options.maxSizeBytes / 1048576)} MB (${Math.round(bytes / 1048576)} MB so far)`,
        }),
      ),
    );
    const git = simpleGit({
      baseDir: dir,
      abort: signal,
      // gc.auto=0: no fetch repacks or prunes a mirror another job may be reading.
      config: ['http.followRedirects=false', 'gc.auto=0', ...config],
      allowEnvironment: Object.keys(env),
      unsafe: {
        allowUnsafeSshCommand: env.GIT_SSH_COMMAND !== undefined,
        allowUnsafeConfigEnvCount: env.GIT_CONFIG_COUNT !== undefined,
      },
    }).env(cloneEnvironment(env));
    options.logger?.info(fresh ? 'cloning into a new mirror' : 'fetching into the mirror', {
      url: redactCredentials(locator.url),
      branch: options.branch ?? null,
    });
    let branch = options.branch;
    /** The branch's commit when the mirror already held everything the remote has. */
    let current: string | null = null;
    try {
      // One round trip names the branch and, for a mirror, tells whether anything is new; the
      // mirror's own refs are read meanwhile.
      const local = fresh ? null : mirrorRefs(dir, signal);
      local?.catch(() => undefined);
      const heads = branch && fresh ? null : await remoteHeads(git, url, branch);
      if (!branch) {
        branch = heads?.headBranch;
        if (!branch) throw new CadenceError('ERR_NO_COMMITS_FOUND', { message: `${locator.repo} has no commits` });
        checkBranchName(branch);
      }
      current = local && heads ? mirrorIsCurrent(await local, heads, branch) : null;
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
    } catch (error) {
      if (error instanceof CadenceError) throw error;
      throw cloneError(error, signal, locator.url);
    }
    // git's own count of the mirror's objects (a walk of a large mirror's folder would cost more
    // than the fetch), the branch's head and the pushed commit's presence: three git processes,
    // side by side, all answered before the mirror is used.
    // An unchanged mirror was measured when it last changed, and its head is the one just read.
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
    const finalSize = settledValue(sized);
    if (finalSize > options.maxSizeBytes) {
      throw new CadenceError('ERR_REPOSITORY_TOO_LARGE', {
        message: `The clone is ${Math.round(finalSize / 1048576)} MB, above ${Math.round(options.maxSizeBytes / 1048576)} MB`,
      });
    }
    const head = settledValue(headed);
    if (head.code !== 0) throw new CadenceError('ERR_NO_COMMITS_FOUND', { message: `${locator.repo} has no commits` });
    settledValue(ensured);
    if ((await readFile(path.join(dir, 'HEAD'), 'utf8').catch(() => '')).trim() !== `ref: refs/heads/${branch}`) {
      await runGitCommand(dir, ['symbolic-ref', 'HEAD', `refs/heads/${branch}`], signal);
    }
    const fetchedRefs = await fetchOptionalRefs(git, dir, options.optionalRefs ?? [], url, signal);
    const mirror = held;
    let released = false;
    return {
      dir,
      headCommit: head.stdout.trim(),
      branch,
      shallow: false,
      mirrored: true,
      fetchedRefs,
      dispose: async () => {
        if (released) return;
        released = true;
        await mirror.release();
      },
    };
  } catch (error) {
    if (held) {
      if (fresh) await discardMirror(held.dir);
      await held.release();
    }
    if (signal.aborted) throw abortError(signal);
    throw error;
  } finally {
    clearTimeout(timer);
    stopWatching();
  }
}

function settledValue<T>(outcome: PromiseSettledResult<T>): T {
  if (outcome.status === 'rejected') throw outcome.reason;
  return outcome.value;
}

/** Fetches each ref (already checked against REQUEST_REF) the remote still has; returns those it had. */
async function fetchOptionalRefs(
  git: ReturnType<typeof simpleGit>,
  dir: string,
  refs: readonly string[],
  remote: string,
  signal: AbortSignal,
): Promise<string[]> {
  const fetched: string[] = [];
  for (const ref of refs) {
    try {
      await git
        .cwd(dir)
        .raw([
          'fetch',
          '--no-tags',
          ...(remote === 'origin' ? [] : ['--no-write-fetch-head']),
          '--',
          remote,
          `+${ref}:${ref}`,
        ]);
      fetched.push(ref);
    } catch {
      if (signal.aborted) throw abortError(signal);
    }
  }
  return fetched;
}

async function ensureCommit(
  git: ReturnType<typeof simpleGit>,
  dir: string,
  commit: string,
  signal: AbortSignal,
  url: string,
  remote = 'origin',
  ref?: string,
): Promise<void> {
  const present = await runGitCommand(dir, ['cat-file', '-e', `${commit}^{commit}`], signal);
  if (present.code === 0) return;
  try {
    // A request's head is fetched by its ref (checked against REQUEST_REF): servers need not serve unadvertised commits.
    const what = ref ? `+${ref}:${ref}` : commit;
    await git
      .cwd(dir)
      .raw(['fetch', '--no-tags', ...(remote === 'origin' ? [] : ['--no-write-fetch-head']), '--', remote, what]);
    if (ref && (await runGitCommand(dir, ['cat-file', '-e', `${commit}^{commit}`], signal)).code !== 0)
      throw new Error(`${ref} does not hold ${commit}`);
  } catch (error) {
    if (signal.aborted) throw abortError(signal);
    throw new CadenceError('ERR_NO_COMMITS_FOUND', {
      message: `The pushed commit ${commit.slice(0, 12)} is not in ${redactCredentials(url)}`,
      cause: error,
    });
  }
}

/**
 * The Git AI Standard's authorship notes and Agent Trace notes travel apart from branches: fetched
 * when the remote has them (pattern refspecs: a pattern matching nothing is no error). Most repositories do not, so a missing ref is not worth a word; any other failure is logged
 * and the analysis goes on without notes.
 */
async function fetchAiNotes(
  git: ReturnType<typeof simpleGit>,
  dir: string,
  signal: AbortSignal,
  logger: OpenOptions['logger'],
): Promise<void> {
  try {
    await git.cwd(dir).raw(['fetch', '--no-tags', '--', 'origin', ...NOTES_REFSPECS]);
  } catch (error) {
    if (signal.aborted) throw abortError(signal);
    const text = error instanceof Error ? error.message : String(error);
    if (!/couldn't find remote ref|no such ref|not our ref/i.test(text)) {
      logger?.warn('could not fetch AI notes', { ref: AI_NOTES_REF, error: redactCredentials(text).slice(0, 300) });
    }
  }
}

/**
 * A forge token for git over https, outside the URL: `http.<prefix>.extraHeader` given through
 * git's GIT_CONFIG_* environment, for this one git process. No URL, mirror config, job record or
 * log line holds it, and git sends it only to URLs under the prefix (the forge's own origin).
 */
function authorizationEnvironment(
  locator: RemoteRepository,
  authorization: OpenOptions['httpAuthorization'],
): Record<string, string> {
  if (
    !authorization ||
    (locator.scheme !== 'https' && locator.scheme !== 'http') ||
    !locator.url.startsWith(authorization.urlPrefix)
  )
    return {};
  return {
    GIT_CONFIG_COUNT: '1',
    GIT_CONFIG_KEY_0: `http.${authorization.urlPrefix}.extraHeader`,
    GIT_CONFIG_VALUE_0: authorization.header,
  };
}

/** What git is started with for one remote: the URL serialized from checked parts, config and environment. */
interface PinnedTarget {
  readonly url: string;
  readonly config: string[];
  readonly env: Record<string, string>;
}

/**
 * docs/git-source.md, The network guard and pinning: resolve and check the host, then make git connect to the address that was checked,
 * whatever the name resolves to a moment later: over http(s) curl's resolve option pins it (TLS still
 * verifies the name), over git:// the IP goes in the URL, over ssh OpenSSH is told the address as its
 * HostName while host keys are still checked under the name (HostKeyAlias). Only the URL's own
 * protocol is allowed, so nothing git does afterwards can switch to another transport.
 */
async function pinnedTarget(locator: RemoteRepository, options: OpenOptions): Promise<PinnedTarget> {
  const protocol = locator.scheme === 'scp' ? 'ssh' : locator.scheme;
  const env: Record<string, string> = {
    GIT_ALLOW_PROTOCOL: protocol,
    GIT_TERMINAL_PROMPT: '0',
    ...authorizationEnvironment(locator, options.httpAuthorization),
  };
  if (!options.policy) return { url: locator.url, config: [], env };
  const checked = await resolveAndCheck(locator.host, options.policy, options.signal);
  if (locator.scheme === 'https' || locator.scheme === 'http') {
    // An older git ignores the unknown key and would resolve the name again itself: refuse instead.
    const version = await installedGitVersion();
    if (!version || !atLeast(version, HTTP_PINNING_SINCE)) {
      throw new CadenceError('ERR_GIT_CLONE_FAILED', {
        message: `Cloning http(s) URLs under the network guard needs git ${HTTP_PINNING_SINCE.slice(0, 2).join('.')} or later (found ${version ? version.join('.') : 'no version'}): it pins the connection to the checked address`,
      });
    }
    const literal = checked.family === 6 ? `[${checked.address}]` : checked.address;
    return { url: locator.url, config: [`http.curloptResolve=${locator.host}:${locator.port}:${literal}`], env };
  }
  if (locator.scheme === 'git') return { url: serializeRemote(locator, checked.address), config: [], env };
  // git runs GIT_SSH_COMMAND through a shell: both values passed the URL grammar or are IP literals
  // (letters, digits, '.', ':' and '-' not in first place), so no shell word can be formed from them.
  const ssh = ['ssh', '-o', `HostName=${checked.address}`, '-o', `HostKeyAlias=${locator.host}`, '-o', 'BatchMode=yes'];
  return { url: locator.url, config: [], env: { ...env, GIT_SSH_COMMAND: ssh.join(' ') } };
}
