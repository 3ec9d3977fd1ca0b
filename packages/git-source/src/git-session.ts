import type { SimpleGit } from 'simple-git';
import { abortError, CadenceError, redactCredentials, errorMessage } from '@cadence-detect/errors';
import { resolveAndCheck } from '@cadence-detect/network-guard';
import type { OpenOptions } from './clone-options.js';
import { watchDirectorySize } from './directory-size.js';
import { cloneEnvironment, gitBinary, runGitCommand } from './git-process.js';
import { atLeast, HTTP_PINNING_SINCE, installedGitVersion } from './git-version.js';
import { AGENT_TRACE_NOTES_REF } from './line-records.js';
import { AI_NOTES_REF } from './notes.js';
import { serializeRemote, type RemoteRepository } from './repository-url.js';

/** The notes a clone brings with the branch: git-ai's authorship logs and Agent Trace records. */
export const NOTES_REFSPECS = [
  `+${AI_NOTES_REF}*:${AI_NOTES_REF}*`,
  `+${AGENT_TRACE_NOTES_REF}*:${AGENT_TRACE_NOTES_REF}*`,
];

/**
 * One remote's git work under one set of rules, shared by the temporary clone and the mirror: the
 * pinned address and the one allowed protocol, no redirects, the time limit and the size cap (a
 * folder watched while git writes, and a final measure refused above the cap).
 */
export interface GitSession {
  /** The URL git is given (over git:// the checked address in place of the name). */
  readonly url: string;
  /** Aborted by the caller's signal, the time limit or the size cap. */
  readonly signal: AbortSignal;
  /** simple-git in `baseDir`, with the session's configuration and environment (and `extraConfig`). */
  git(baseDir: string, extraConfig?: readonly string[]): SimpleGit;
  /** Watches a folder while git writes to it: past the cap, the session is aborted. */
  watchSize(dir: string): void;
  /** Refuses a size measured once git is done. */
  checkSize(bytes: number): void;
  /** Clears the timer and the watch. */
  close(): void;
}

/**
 * simple-git, imported by the first session: its module and its dependencies cost a process about
 * 80 ms of CPU to load, and most `cadence` processes (a local analysis, a server's main thread, a
 * configuration command) never clone.
 */
let simpleGitModule: Promise<typeof import('simple-git')> | undefined;

export async function openGitSession(locator: RemoteRepository, options: OpenOptions): Promise<GitSession> {
  const { url, config, env } = await pinnedTarget(locator, options);
  const { simpleGit } = await (simpleGitModule ??= import('simple-git'));
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
  let stopWatching = (): void => undefined;
  return {
    url,
    signal,
    git: (baseDir, extraConfig = []) =>
      simpleGit({
        baseDir,
        // By absolute path: under `npx` a checkout's node_modules/.bin comes first on PATH.
        binary: gitBinary(),
        abort: signal,
        // Ours, not the caller's: redirects could lead a guarded clone to another host.
        config: ['http.followRedirects=false', ...extraConfig, ...config],
        // simple-git refuses guarded variables unless named: the only ones passed are ours (cloneEnvironment),
        // GIT_CONFIG_* only for a forge token as a header (authorizationEnvironment).
        allowEnvironment: Object.keys(env),
        unsafe: {
          allowUnsafeSshCommand: env.GIT_SSH_COMMAND !== undefined,
          allowUnsafeConfigEnvCount: env.GIT_CONFIG_COUNT !== undefined,
        },
      }).env(cloneEnvironment(env)),
    watchSize(dir) {
      stopWatching = watchDirectorySize(dir, options.maxSizeBytes, (bytes) =>
        stop.abort(
          new CadenceError('ERR_REPOSITORY_TOO_LARGE', {
            message: `The clone passed ${Math.round(options.maxSizeBytes / 1048576)} MB (${Math.round(bytes / 1048576)} MB so far)`,
          }),
        ),
      );
    },
    checkSize(bytes) {
      if (bytes > options.maxSizeBytes) {
        throw new CadenceError('ERR_REPOSITORY_TOO_LARGE', {
          message: `The clone is ${Math.round(bytes / 1048576)} MB, above ${Math.round(options.maxSizeBytes / 1048576)} MB`,
        });
      }
    },
    close() {
      clearTimeout(timer);
      stopWatching();
    },
  };
}

export function settledValue<T>(outcome: PromiseSettledResult<T>): T {
  if (outcome.status === 'rejected') throw outcome.reason;
  return outcome.value;
}

/** Fetches each ref (already checked against REQUEST_REF) the remote still has; returns those it had. */
export async function fetchOptionalRefs(
  git: SimpleGit,
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

export async function ensureCommit(
  git: SimpleGit,
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
export async function fetchAiNotes(
  git: SimpleGit,
  dir: string,
  signal: AbortSignal,
  logger: OpenOptions['logger'],
): Promise<void> {
  try {
    await git.cwd(dir).raw(['fetch', '--no-tags', '--', 'origin', ...NOTES_REFSPECS]);
  } catch (error) {
    if (signal.aborted) throw abortError(signal);
    const text = errorMessage(error);
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
