import { spawn } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import path from 'node:path';
import { CadenceError } from '@cadence-detect/errors';

export interface GitResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * PATH entries that `npx`, `npm exec` and package scripts put first: a checkout's own programs
 * (`node_modules/.bin/git` in a hostile clone), never the ones Cadence runs.
 */
const PACKAGE_BIN = /(^|[\\/])node_modules[\\/]\.bin[\\/]?$/;

/**
 * The first executable `name` in PATH's absolute entries that are no package's bin folder, then in
 * /usr/bin and /bin; `override` (an absolute path) wins. Null when there is none.
 */
function findProgram(name: string, override: string | undefined): string | null {
  if (override && path.isAbsolute(override) && isExecutable(override)) return override;
  const dirs = [
    ...(process.env.PATH ?? '').split(path.delimiter).filter((d) => path.isAbsolute(d) && !PACKAGE_BIN.test(d)),
    '/usr/bin',
    '/bin',
  ];
  for (const dir of dirs) {
    const candidate = path.join(dir, name);
    if (isExecutable(candidate)) return candidate;
  }
  return null;
}

function isExecutable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

let gitPath: string | null | undefined;

/**
 * The git Cadence runs, by absolute path: `CADENCE_GIT` when it names one, else the first on PATH
 * outside any `node_modules/.bin` (looked up once). A clear error when there is none: a bare `git`
 * would let the system find one in exactly the folders left out.
 */
export function gitBinary(): string {
  gitPath ??= findProgram('git', process.env.CADENCE_GIT);
  if (gitPath === null)
    throw new CadenceError('ERR_GIT_READ_FAILED', {
      message:
        'git was not found: install git (on PATH, outside node_modules/.bin) or set CADENCE_GIT to its absolute path',
    });
  return gitPath;
}

/**
 * Repositories git is pointed at explicitly: a folder Cadence was given (a local path, a CI
 * checkout) or made (a clone, a mirror), by its absolute path, to the git directory resolved for it
 * once. git is then started with `--git-dir` in that directory, never left to discover a repository
 * from the folder's contents: a request can replace a sub-folder with a bare repository of ordinary
 * files whose `config` names commands (diff drivers, textconv), and git would take it.
 */
const pinnedRepositories = new Map<string, string>();

/** From now on, git runs on `dir` as `--git-dir=<gitDir>` (both absolute or made so). */
export function pinRepository(dir: string, gitDir: string): void {
  pinnedRepositories.set(path.resolve(dir), path.resolve(gitDir));
}

/** Forgets a pinned folder (a clone removed). */
export function unpinRepository(dir: string): void {
  pinnedRepositories.delete(path.resolve(dir));
}

/** The git directory `dir` is pinned to, or undefined. */
export function pinnedGitDir(dir: string): string | undefined {
  return pinnedRepositories.get(path.resolve(dir));
}

/** How a git process on the repository at `dir` starts: the program, its arguments and its folder. */
export interface GitInvocation {
  readonly command: string;
  readonly args: string[];
  readonly cwd: string;
}

/**
 * `git <args>` on the repository at `dir` (argument array, no shell), within `bounds` when given
 * (boundedGitCommand). A pinned repository gets `--git-dir` and runs in its git directory, so no
 * working tree is ever read (`.mailmap`, `.gitattributes` and every file come from commits).
 */
export function gitInvocation(dir: string, args: readonly string[], bounds?: GitBounds): GitInvocation {
  const gitDir = pinnedGitDir(dir);
  const located = gitDir === undefined ? [...args] : [`--git-dir=${gitDir}`, ...args];
  // Every read maps packs in small windows (PACK_CONFIG): an unbounded `git rev-list --count` of a
  // history with a 400 MB pack held 413 MiB, all of it mapped pack.
  const command = bounds
    ? boundedGitCommand(located, bounds)
    : { command: gitBinary(), args: [...PACK_CONFIG, ...located] };
  return { ...command, cwd: gitDir ?? dir };
}

/**
 * `git <args>` in `cwd`, left to find the repository there: only for the one look that pins a
 * folder (local-repository.ts), never for reading a repository.
 */
export function runGitDiscovering(cwd: string, args: readonly string[], signal?: AbortSignal): Promise<GitResult> {
  return new Promise((resolve, reject) => collectOutput(gitBinary(), args, cwd, signal).then(resolve, reject));
}

/** Runs a short git command (argument array, no shell) and collects its output; killed on abort. */
export function runGitCommand(cwd: string, args: readonly string[], signal?: AbortSignal): Promise<GitResult> {
  return new Promise((resolve, reject) => {
    const git = gitInvocation(cwd, args);
    collectOutput(git.command, git.args, git.cwd, signal).then(resolve, reject);
  });
}

/** `runGitCommand` within `bounds` (boundedGitCommand): the line passes' blames and reads. */
export function runBoundedGit(
  cwd: string,
  args: readonly string[],
  bounds: GitBounds,
  signal?: AbortSignal,
): Promise<GitResult> {
  return new Promise((resolve, reject) => {
    const git = gitInvocation(cwd, args, bounds);
    collectOutput(git.command, git.args, git.cwd, signal).then(resolve, reject);
  });
}

function collectOutput(
  command: string,
  args: readonly string[],
  cwd: string,
  signal?: AbortSignal,
): Promise<GitResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'], signal, env: gitEnvironment() });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      // An output past what a string can hold (a blob of hundreds of megabytes) is a failed read,
      // never an exception thrown out of this event handler, which would end the process.
      try {
        resolve({ code, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') });
      } catch (error) {
        reject(
          new CadenceError('ERR_GIT_READ_FAILED', {
            message: 'a git read printed more than a string can hold',
            cause: error,
          }),
        );
      }
    });
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

/**
 * What a git child reading history may cost. A tiny repository can make `git log --numstat` use
 * gigabytes: a blob of millions of short lines compresses to kilobytes, and git's line diff holds
 * a record per line of both sides. Two bounds hold it:
 *
 * - blobs larger than `maxDiffBlobBytes` are diffed as binary, by size alone, without being read
 *   (`core.bigFileThreshold`): numstat prints `-` for them, as for any binary file;
 * - each git child runs under an address-space limit (`prlimit --as`), with git's pack windows
 *   lowered to fit in it (`core.packedGitWindowSize`, `core.packedGitLimit`: by default git maps
 *   packs in 1 GiB windows, up to terabytes on 64-bit). A child that reaches the limit fails to
 *   allocate, and the read fails with ERR_REPOSITORY_TOO_LARGE.
 */
export interface GitBounds {
  /** Blobs above this many bytes count as binary, without a line diff. */
  readonly maxDiffBlobBytes: number;
  /** The address space of each git child, in bytes; null for none. */
  readonly addressSpaceBytes: number | null;
}

const MIB = 1024 * 1024;

/**
 * 16 MiB blobs (the default of `limits.max_diff_blob_mb`) and 1 GiB of address space: reading the
 * 50,000-commit benchmark history peaks at about 250 MiB of address space (210 MiB resident), and
 * the worst line diff below 16 MiB (a blob of one-character lines) needs more than 1 GiB, so it
 * fails with ERR_REPOSITORY_TOO_LARGE instead of taking the host's memory.
 */
export const DEFAULT_GIT_BOUNDS: GitBounds = Object.freeze({
  maxDiffBlobBytes: 16 * MIB,
  addressSpaceBytes: 1024 * MIB,
});

/**
 * Pack windows small enough for the address-space limit, and small enough that a history read
 * stays under 300 MiB resident: at most 64 MiB of packs mapped at once, 16 MiB at a time, and 64
 * MiB of delta bases cached (git's default is 96). The mapped pages count as the child's resident
 * memory: on the 50,000-commit benchmark history (a 400 MB pack) `git log --numstat` held 349 MiB
 * with 256 MiB of windows and 150 MiB with these, in the same time; a repacked copy of it (deep
 * delta chains) read no slower.
 */
const PACK_WINDOW = '16m';
const PACK_LIMIT = '64m';
const DELTA_BASE_CACHE = '64m';
const PACK_CONFIG = [
  '-c',
  `core.packedGitWindowSize=${PACK_WINDOW}`,
  '-c',
  `core.packedGitLimit=${PACK_LIMIT}`,
  '-c',
  `core.deltaBaseCacheLimit=${DELTA_BASE_CACHE}`,
] as const;

let prlimitPath: string | null | undefined;

/** util-linux's `prlimit`, looked up once on PATH outside `node_modules/.bin` (and in /usr/bin, /bin); null when absent. */
export function findPrlimit(): string | null {
  prlimitPath ??= findProgram('prlimit', undefined);
  return prlimitPath;
}

/**
 * The command and arguments that run `git <args>` within `bounds`: `prlimit --as=<bytes> -- git -c … <args>`
 * where prlimit is installed, plain `git -c … <args>` otherwise (blobs are still diffed as binary above the cap).
 * An argument array throughout: no shell.
 */
export function boundedGitCommand(args: readonly string[], bounds: GitBounds): { command: string; args: string[] } {
  const config = ['-c', `core.bigFileThreshold=${Math.max(1, Math.floor(bounds.maxDiffBlobBytes))}`, ...PACK_CONFIG];
  const prlimit = bounds.addressSpaceBytes === null ? null : findPrlimit();
  if (prlimit === null || bounds.addressSpaceBytes === null)
    return { command: gitBinary(), args: [...config, ...args] };
  return {
    command: prlimit,
    args: [`--as=${Math.floor(bounds.addressSpaceBytes)}`, '--', gitBinary(), ...config, ...args],
  };
}

/** git's words when an allocation fails (malloc, mmap, or xdiff's own), as it dies with them. */
const OUT_OF_MEMORY = /out of memory|cannot allocate memory|mmap failed|malloc failed/i;

/**
 * Whether a git child that ended with `signal` and `stderr` stopped at its memory bound: git
 * reports a failed allocation and exits 128; a child killed by the kernel's OOM killer (SIGKILL,
 * when we did not abort it) or aborting in the C library (SIGABRT) counts too.
 */
export function reachedMemoryBound(signal: NodeJS.Signals | null, stderr: string): boolean {
  return OUT_OF_MEMORY.test(stderr) || signal === 'SIGKILL' || signal === 'SIGABRT';
}

/** The error of a git child stopped by its bounds. */
export function memoryBoundError(what: string, bounds: GitBounds): CadenceError {
  const ceiling =
    bounds.addressSpaceBytes === null
      ? 'its memory'
      : `its ${Math.round(bounds.addressSpaceBytes / MIB)} MiB memory ceiling`;
  return new CadenceError('ERR_REPOSITORY_TOO_LARGE', {
    message: `${what} reached ${ceiling}: the repository's history needs more memory than a job may use`,
  });
}
