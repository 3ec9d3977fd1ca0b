import { spawn } from 'node:child_process';
import { readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { abortError, itemAt } from '@cadence-detect/errors';
import { gitEnvironment, gitInvocation, runGitCommand } from './git-process.js';
import { unquoteGitPath } from './git-quoting.js';
import { BLAME_FLAGS, type BlameGroup, type FileBlame } from './head-lines.js';

/** The file in a mirror that keeps what blame found, from one line pass to the next. */
export const BLAME_CACHE_FILE = 'cadence-blame.json';
const FORMAT = 1;

/**
 * What blame found per file, kept in a repository mirror so that a file nobody changed is never
 * blamed again. A file's blame at a head is fully decided by its path, the last commit that
 * touched it and the blame flags: that triple (with the blob, against a merge that changed the file
 * without a diff git log shows) is the key. A pass stores what it used and found; what the tree no
 * longer holds is dropped when it saves.
 */
export interface BlameCache {
  /** The kept blame of `path` at the head, if its key is unchanged. */
  lookup(path: string): FileBlame | undefined;
  store(path: string, blame: FileBlame): void;
  /** Writes the entries of this head (replacing the file atomically). */
  save(): Promise<void>;
  /** Files answered from the cache, and blamed, in this pass. */
  readonly stats: { hits: number; misses: number };
  /** The rework pass kept for `key` (the head, the exclusions and the line records it ran with). */
  lookupRework(key: string): KeptRework | undefined;
  storeRework(key: string, rework: KeptRework): void;
}

export interface KeptRework {
  readonly lines: Map<string, number>;
  readonly marked: Map<string, number>;
}

interface StoredFile {
  /** Indexes into `commits`. */
  readonly boundary: number[];
  /** `[commit index, path (null: the file's own), line, count]`. */
  readonly groups: [number, string | null, number, number][];
}

interface StoredCache {
  readonly format: number;
  readonly flags: string;
  readonly commits: string[];
  readonly files: Record<string, StoredFile>;
  readonly rework?: { readonly key: string; readonly lines: [string, number][]; readonly marked: [string, number][] };
}

/**
 * Opens the cache of the mirror at `dir` for a pass over the tree at `head`: reads the last commit
 * touching each path (one `git log --name-only`, stopped once every path is found) and each path's
 * blob (one `git ls-tree`), and the kept file. A missing or unreadable file is an empty cache.
 */
export async function openBlameCache(dir: string, head: string, signal?: AbortSignal): Promise<BlameCache> {
  const file = path.join(dir, BLAME_CACHE_FILE);
  const flags = BLAME_FLAGS.join(' ');
  const blobs = await blobsAt(dir, head, signal);
  const lastTouch = await lastTouchingCommits(dir, head, new Set(blobs.keys()), signal);
  const keyOf = (p: string): string | null => {
    const commit = lastTouch.get(p);
    const blob = blobs.get(p);
    return commit && blob ? `${commit} ${blob} ${p}` : null;
  };
  const usable = await readStoredCache(file, flags);
  const fresh = new Map<string, FileBlame>();
  const stats = { hits: 0, misses: 0 };
  let rework: StoredCache['rework'] = usable?.rework;
  return {
    stats,
    lookupRework(key) {
      if (!rework || rework.key !== key || !Array.isArray(rework.lines) || !Array.isArray(rework.marked))
        return undefined;
      return { lines: new Map(rework.lines), marked: new Map(rework.marked) };
    },
    storeRework(key, kept) {
      rework = { key, lines: [...kept.lines], marked: [...kept.marked] };
    },
    lookup(p) {
      const key = keyOf(p);
      const stored = key && usable ? usable.files[key] : undefined;
      if (!key || !usable || !stored) {
        stats.misses++;
        return undefined;
      }
      const blame = revive(stored, usable.commits, p);
      if (!blame) {
        stats.misses++;
        return undefined;
      }
      stats.hits++;
      fresh.set(key, blame);
      return blame;
    },
    store(p, blame) {
      const key = keyOf(p);
      if (key) fresh.set(key, blame);
    },
    async save() {
      const { commits, files } = storedFiles(fresh);
      const stored: StoredCache = { format: FORMAT, flags, commits, files, ...(rework ? { rework } : {}) };
      // Written aside and renamed: a reader never sees half a file.
      const temporary = `${file}.${process.pid}.tmp`;
      await writeFile(temporary, JSON.stringify(stored));
      await rename(temporary, file);
    },
  };
}

/** The kept cache when it is of this format and these blame flags, else null (a missing or damaged file is an empty cache). */
async function readStoredCache(file: string, flags: string): Promise<StoredCache | null> {
  const kept = await readFile(file, 'utf8')
    .then((text) => JSON.parse(text) as StoredCache)
    .catch(() => null);
  return kept &&
    kept.format === FORMAT &&
    kept.flags === flags &&
    Array.isArray(kept.commits) &&
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- A damaged file may lack what its type says it holds
    kept.files &&
    typeof kept.files === 'object'
    ? kept
    : null;
}

/** The blames to keep, each commit named once in `commits` and referred to by its index. */
function storedFiles(fresh: ReadonlyMap<string, FileBlame>): { commits: string[]; files: Record<string, StoredFile> } {
  const commits: string[] = [];
  const index = new Map<string, number>();
  const indexOf = (commit: string): number => {
    let at = index.get(commit);
    if (at === undefined) {
      at = commits.length;
      commits.push(commit);
      index.set(commit, at);
    }
    return at;
  };
  const files: Record<string, StoredFile> = {};
  for (const [key, blame] of fresh) {
    const own = key.slice(key.indexOf(' ', key.indexOf(' ') + 1) + 1);
    files[key] = {
      boundary: [...blame.boundary].map(indexOf),
      groups: blame.groups.map((g) => [indexOf(g.commit), g.path === own ? null : g.path, g.line, g.count]),
    };
  }
  return { commits, files };
}

function revive(stored: StoredFile, commits: readonly string[], own: string): FileBlame | null {
  if (!Array.isArray(stored.groups) || !Array.isArray(stored.boundary)) return null;
  const groups: BlameGroup[] = [];
  for (const entry of stored.groups) {
    const commit = commits[entry[0]];
    if (commit === undefined) return null;
    groups.push({ commit, path: entry[1] ?? own, line: entry[2], count: entry[3] });
  }
  const boundary = new Set<string>();
  for (const at of stored.boundary) {
    const commit = commits[at];
    if (commit === undefined) return null;
    boundary.add(commit);
  }
  return { groups, boundary };
}

/** Each file's blob id at `head`, from one `git ls-tree -r -z`. */
async function blobsAt(dir: string, head: string, signal?: AbortSignal): Promise<Map<string, string>> {
  const listed = await runGitCommand(dir, ['ls-tree', '-r', '-z', '--full-tree', head], signal);
  const blobs = new Map<string, string>();
  if (listed.code !== 0) return blobs;
  for (const entry of listed.stdout.split('\0')) {
    const match = /^\d+ blob ([0-9a-f]+)\t(.+)$/s.exec(entry);
    if (match) blobs.set(itemAt(match, 2), itemAt(match, 1));
  }
  return blobs;
}

/**
 * The newest commit (in `git log` order from `head`) whose diff names each wanted path: one
 * streaming `git log --name-only -z --no-renames`, stopped as soon as every path is found.
 */
function lastTouchingCommits(
  dir: string,
  head: string,
  wanted: ReadonlySet<string>,
  signal?: AbortSignal,
): Promise<Map<string, string>> {
  return new Promise((resolve, reject) => {
    const found = new Map<string, string>();
    if (wanted.size === 0) {
      resolve(found);
      return;
    }
    const git = gitInvocation(dir, [
      '-c',
      'core.quotePath=false',
      'log',
      '--format=%x01%H',
      '--name-only',
      '-z',
      '--no-renames',
      '--end-of-options',
      head,
    ]);
    const child = spawn(git.command, git.args, {
      cwd: git.cwd,
      stdio: ['ignore', 'pipe', 'ignore'],
      env: gitEnvironment(),
    });
    const onAbort = (): void => {
      child.kill('SIGKILL');
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    const read = firstTouches(wanted, found);
    let done = false;
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      if (done || !read(chunk)) return;
      done = true;
      child.kill('SIGKILL');
    });
    child.on('error', reject);
    child.on('close', () => {
      signal?.removeEventListener('abort', onAbort);
      if (signal?.aborted) reject(abortError(signal));
      else resolve(found);
    });
  });
}

/**
 * Reads `git log --format=%x01%H --name-only -z` as it streams: the first commit naming each wanted
 * path goes into `found`. Answers true once every path is found.
 */
function firstTouches(wanted: ReadonlySet<string>, found: Map<string, string>): (chunk: string) => boolean {
  let current = '';
  let rest = '';
  return (chunk) => {
    const tokens = (rest + chunk).split('\0');
    rest = tokens.pop() ?? '';
    for (const token of tokens) {
      if (token.startsWith('\x01')) {
        current = token.slice(1);
        continue;
      }
      const name = unquoteGitPath(token.replace(/^\n/, ''));
      if (name.length > 0 && wanted.has(name) && !found.has(name)) found.set(name, current);
    }
    return found.size === wanted.size;
  };
}
