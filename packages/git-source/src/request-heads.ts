import { CadenceError } from '@cadence-detect/errors';
import { isFullCommitId, type CommitRecord, type RequestCommits } from '@cadence-detect/plugin-sdk';
import { runBoundedGit, runGitCommand, DEFAULT_GIT_BOUNDS, type GitBounds } from './git-process.js';
import { commitRecordSink } from './commit-record.js';
import { createLogStreamParser, LOG_FORMAT } from './log-stream.js';

/** A squash commit, the request its subject names, and when it was committed (Unix seconds). */
export interface SquashSubject {
  readonly commit: string;
  readonly number: number;
  readonly committerTime: number;
}

/** GitHub lists at most 250 commits of a pull request; a longer one is read no further. */
export const MAX_COMMITS_PER_REQUEST = 250;
/** How many squashed requests an analysis reads the commits of (the newest); `limits.max_request_heads`. */
export const DEFAULT_MAX_REQUESTS = 500;
/** Commits read from request heads at most, whatever the number of requests (their records are kept). */
export const MAX_REQUEST_COMMITS_READ = 10_000;

/**
 * The request a squash commit's subject names: GitHub's, Gitea's and Forgejo's squash merges end
 * the title with `(#N)`, the number of the pull request kept as `refs/pull/N/head`. (On GitLab
 * `#N` is an issue, numbered apart from merge requests: its heads are never matched to it.) A
 * merge commit is no squash: its request's commits are in the history.
 */
const SQUASH_SUBJECT = /\(#([1-9]\d{0,9})\)\s*$/;

/** The request a subject names as a squash's, or null. */
export function numberOfSquashSubject(subject: string): number | null {
  const match = SQUASH_SUBJECT.exec(subject);
  return match ? Number(match[1]) : null;
}

export function squashSubjects(commits: readonly CommitRecord[]): SquashSubject[] {
  const found: SquashSubject[] = [];
  for (const commit of commits) {
    const number = commit.isMerge ? null : numberOfSquashSubject(commit.subject);
    if (number !== null) found.push({ commit: commit.hash, number, committerTime: commit.committerTime });
  }
  return found;
}

const HEAD_REF = /^refs\/pull\/([1-9]\d{0,9})\/head$/;

/** The pull request heads the repository holds, by request number. */
export async function requestHeads(
  dir: string,
  signal?: AbortSignal,
): Promise<Map<number, { ref: string; head: string }>> {
  const listed = await runGitCommand(
    dir,
    ['for-each-ref', '--format=%(objectname) %(objecttype) %(refname)', 'refs/pull/'],
    signal,
  );
  if (listed.code !== 0) {
    throw new CadenceError('ERR_GIT_READ_FAILED', {
      message: `git for-each-ref exited with ${listed.code}: ${listed.stderr.trim().slice(0, 200)}`,
    });
  }
  const heads = new Map<number, { ref: string; head: string }>();
  for (const line of listed.stdout.split('\n')) {
    const [head, type, ref] = line.split(' ');
    const match = ref ? HEAD_REF.exec(ref) : null;
    if (!ref || !match || type !== 'commit' || !head || !isFullCommitId(head)) continue;
    heads.set(Number(match[1]), { ref, head });
  }
  return heads;
}

/** A squashed request's own commits, before their notes are read. */
export type RequestHeadCommits = Omit<RequestCommits, 'authorshipLogs'>;

export interface ReadRequestCommitsOptions {
  /** The analysed head (a full commit id): its history holds what is no request's own. */
  readonly head: string;
  readonly squashes: readonly SquashSubject[];
  readonly maxRequests?: number;
  readonly excludeFiles: (path: string) => boolean;
  readonly bounds?: GitBounds;
  readonly signal?: AbortSignal;
}

/**
 * The own commits of each squashed request whose head the repository holds, by squash commit: the
 * commits reachable from the request's head and not from the analysed head nor an earlier request's
 * head, read in one `git log` of every such head. They are read for who made them and what their
 * messages say: names as the commits write them (no `.mailmap`), and no diff (a clone that lacks
 * some of their files' versions reads them all the same), so their records count no file or line.
 */
export async function readRequestCommits(
  dir: string,
  options: ReadRequestCommitsOptions,
): Promise<Map<string, RequestHeadCommits>> {
  const carried = new Map<string, RequestHeadCommits>();
  if (options.squashes.length === 0 || !isFullCommitId(options.head)) return carried;
  const maxRequests = options.maxRequests ?? DEFAULT_MAX_REQUESTS;
  if (!(maxRequests > 0)) return carried;
  const heads = await requestHeads(dir, options.signal);
  const wanted = options.squashes.filter((squash) => heads.has(squash.number)).slice(-maxRequests);
  if (wanted.length === 0) return carried;
  const tips = [...new Set(wanted.flatMap((squash) => heads.get(squash.number)?.head ?? []))];
  const maxCommits = Math.min(wanted.length * MAX_COMMITS_PER_REQUEST, MAX_REQUEST_COMMITS_READ);
  const result = await runBoundedGit(
    dir,
    [
      '-c',
      'mailmap.file=',
      '-c',
      'mailmap.blob=',
      'log',
      '-z',
      '--no-color',
      '--no-ext-diff',
      '--no-textconv',
      '--no-show-signature',
      `--max-count=${maxCommits}`,
      LOG_FORMAT,
      '--end-of-options',
      ...tips,
      `^${options.head}`,
      '--',
    ],
    options.bounds ?? DEFAULT_GIT_BOUNDS,
    options.signal,
  );
  if (result.code !== 0) {
    throw new CadenceError('ERR_GIT_READ_FAILED', {
      message: `git log of the request heads exited with ${result.code}: ${result.stderr.trim().slice(0, 200)}`,
    });
  }
  const read = new Map<string, CommitRecord>();
  const parser = createLogStreamParser(
    commitRecordSink(options.excludeFiles, new Set(), (commit) => read.set(commit.record.hash, commit.record)),
  );
  parser.push(result.stdout);
  parser.finish();
  // In the order the squashes landed (oldest first): a stacked request leaves its base's commits to it.
  const claimed = new Set<string>();
  for (const squash of wanted) {
    const found = heads.get(squash.number);
    if (!found) continue;
    const { ref, head } = found;
    // A head committed after the squash is not what was squashed: a subject that only names
    // another request, or a fork's request of the same number.
    const tip = read.get(head);
    if (!tip || tip.committerTime > squash.committerTime) continue;
    const commits = ownCommits(head, read, claimed);
    if (commits.length > 0) carried.set(squash.commit, { number: squash.number, ref, commits });
  }
  return carried;
}

/**
 * The commits of `read` reachable from `head` through `read` alone and not claimed by an earlier
 * request, oldest first (by committer time). A request stacked on another's branch reaches that
 * request's commits too: walked in the order their squashes landed, each request keeps only what
 * no earlier one reached (as `git log <head> ^<analysed head> ^<earlier heads>` would).
 */
function ownCommits(head: string, read: ReadonlyMap<string, CommitRecord>, claimed: Set<string>): CommitRecord[] {
  const found = new Map<string, CommitRecord>();
  const pending = [head];
  while (found.size < MAX_COMMITS_PER_REQUEST) {
    const hash = pending.pop();
    if (hash === undefined) break;
    const commit = read.get(hash);
    if (!commit || found.has(hash) || claimed.has(hash)) continue;
    found.set(hash, commit);
    pending.push(...commit.parents);
  }
  for (const hash of found.keys()) claimed.add(hash);
  return [...found.values()].sort((a, b) => a.committerTime - b.committerTime);
}
