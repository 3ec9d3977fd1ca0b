import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { abortError, CadenceError } from '@cadence/errors';
import { uniqueAbbreviations } from './abbreviations.js';
import { linkAuthorIntervals } from './author-intervals.js';
import type { CommitRecord, RepositoryStats } from '@cadence/plugin-sdk';
import { commitRecordSink, type MutableCommit, type ReadCommit } from './commit-record.js';
import { excludeMatcher } from './exclude-matcher.js';
import { gitEnvironment, runGitCommand } from './git-process.js';
import { createLogStreamParser, LOG_FORMAT } from './log-stream.js';
import type { HistoryCache } from './history-cache.js';

export interface ReadHistoryOptions {
  /** The commit (or branch) to read history from. */
  readonly rev: string;
  /** A push's `before`: only before..rev are returned; the rest still feeds the baselines. */
  readonly before?: string | null;
  readonly excludeFiles: readonly string[];
  readonly signal?: AbortSignal;
  /** Commits read so far, called as they stream in. */
  readonly onProgress?: (read: number) => void;
  /**
   * Paths left out of the log entirely (as `:(exclude,literal)` pathspecs): for tools that read
   * mirrors with objects missing, such as the development corpus. Never from user input.
   */
  readonly omitPaths?: readonly string[];
  /** Histories read before from the same (mirror) folder: only commits after the cached head are read. */
  readonly cache?: HistoryCache;
}

export interface History {
  /** Oldest first. */
  readonly commits: CommitRecord[];
  readonly stats: RepositoryStats;
}

const REV = /^[A-Za-z0-9._/-]+$/;

/**
 * Reads the history in ONE streaming `git log -z --numstat` process: its output is parsed token by
 * token as it arrives (log-stream.ts) and kept only as compact CommitRecords, never as text.
 */
export async function readHistory(dir: string, options: ReadHistoryOptions): Promise<History> {
  if (!REV.test(options.rev) || options.rev.startsWith('-')) {
    throw new CadenceError('ERR_INVALID_SOURCE', { message: `Not a revision: ${JSON.stringify(options.rev)}` });
  }
  const isExcluded = excludeMatcher(options.excludeFiles);
  // The range's members and the history are independent reads of the same repository: side by side,
  // a push's job waits for the slower one instead of both (each is a git process of its own).
  const [inRange, read] = await Promise.all([
    options.before ? rangeMembers(dir, options.before, options.rev, options.signal) : null,
    shallowBoundary(dir).then((boundary) => readCommits(dir, options, isExcluded, boundary)),
  ]);
  fillUnknownTimes(read);
  linkAuthorIntervals(read.filter((c) => !c.authorTimeUnknown).map((c) => c.record));
  const abbreviations = uniqueAbbreviations(read.map((c) => c.record.hash));
  for (const commit of read) commit.record.shortHash = abbreviations.get(commit.record.hash) ?? commit.record.shortHash;
  const all = read.map((c) => c.record);
  const commits = inRange ? all.filter((c) => inRange.has(c.hash)) : all;
  return { commits, stats: computeStats(all, commits) };
}

const FULL_HASH = /^[0-9a-f]{40}([0-9a-f]{24})?$/;

/** Oldest first; with a cache, the cached history plus what came after its head when `rev` descends from it. */
async function readCommits(dir: string, options: ReadHistoryOptions, isExcluded: (path: string) => boolean, boundary: ReadonlySet<string>): Promise<ReadCommit[]> {
  const cache = FULL_HASH.test(options.rev) && boundary.size === 0 ? options.cache : undefined;
  const key = JSON.stringify([path.resolve(dir), options.excludeFiles, options.omitPaths ?? []]);
  const cached = cache?.take(key);
  let read: ReadCommit[];
  if (cached && cached.head === options.rev) read = cached.read;
  else if (cached && (await runGitCommand(dir, ['merge-base', '--is-ancestor', cached.head, options.rev], options.signal)).code === 0) {
    const newer = (await streamLog(dir, { ...options, rev: `${cached.head}..${options.rev}` }, isExcluded, boundary)).reverse();
    read = [...cached.read, ...newer];
  } else {
    read = (await streamLog(dir, options, isExcluded, boundary)).reverse();
  }
  // Kept as read, before the history-wide passes below change the records.
  cache?.set(key, options.rev, read);
  return read;
}

function omitted(paths: readonly string[] | undefined): string[] {
  if (!paths || paths.length === 0) return [];
  return ['.', ...paths.map((p) => `:(exclude,literal)${p}`)];
}

function streamLog(
  dir: string,
  options: ReadHistoryOptions,
  isExcluded: (path: string) => boolean,
  boundary: ReadonlySet<string>,
): Promise<ReadCommit[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      'git',
      ['log', '-z', '--numstat', '--no-color', '--no-ext-diff', '--no-show-signature', LOG_FORMAT, '--end-of-options', options.rev, '--', ...omitted(options.omitPaths)],
      { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'], env: gitEnvironment() },
    );
    const commits: ReadCommit[] = [];
    let stderr = '';
    const onAbort = (): void => {
      child.kill('SIGKILL');
    };
    options.signal?.addEventListener('abort', onAbort, { once: true });
    const parser = createLogStreamParser(
      commitRecordSink(isExcluded, boundary, (commit) => {
        commits.push(commit);
        if (commits.length % 1000 === 0) options.onProgress?.(commits.length);
      }),
    );
    // Decoded here so that a character split across two chunks reaches the parser whole.
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => parser.push(chunk));
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      if (stderr.length < 4096) stderr += chunk;
    });
    child.on('error', (error) => reject(new CadenceError('ERR_GIT_CLONE_FAILED', { message: `git log failed to start: ${error.message}` })));
    child.on('close', (code) => {
      options.signal?.removeEventListener('abort', onAbort);
      if (options.signal?.aborted) {
        reject(abortError(options.signal));
        return;
      }
      if (code !== 0) {
        if (/does not have any commits|unknown revision|bad revision|ambiguous argument/i.test(stderr)) {
          reject(new CadenceError('ERR_NO_COMMITS_FOUND', { message: `No commits at ${options.rev}` }));
        } else {
          reject(new CadenceError('ERR_GIT_CLONE_FAILED', { message: `git log failed: ${stderr.trim().split('\n')[0] ?? code}` }));
        }
        return;
      }
      parser.finish();
      options.onProgress?.(commits.length);
      resolve(commits);
    });
  });
}

/**
 * A commit with neither date usable takes the time of its nearest neighbour in history order
 * (oldest first), so that spans and timelines stay those of the real history; 0 when no commit
 * has a usable date.
 */
function fillUnknownTimes(commits: readonly ReadCommit[]): void {
  let last: number | null = null;
  const waiting: MutableCommit[] = [];
  for (const { record, timeUnknown } of commits) {
    if (timeUnknown) {
      if (last === null) waiting.push(record);
      else setTime(record, last);
    } else {
      last = record.authorTime;
    }
  }
  const first = commits.find((c) => !c.timeUnknown)?.record.authorTime ?? 0;
  for (const record of waiting) setTime(record, first);
}

function setTime(record: MutableCommit, seconds: number): void {
  record.authorTime = seconds;
  record.committerTime = seconds;
}

async function rangeMembers(dir: string, before: string, rev: string, signal?: AbortSignal): Promise<Set<string> | null> {
  if (!REV.test(before) || before.startsWith('-')) {
    throw new CadenceError('ERR_INVALID_SOURCE', { message: `Not a revision: ${JSON.stringify(before)}` });
  }
  const result = await runGitCommand(dir, ['rev-list', '--end-of-options', `${before}..${rev}`, '--'], signal);
  // An unknown `before` (a force push, or outside a shallow clone): the whole history is analyzed.
  if (result.code !== 0) return null;
  return new Set(result.stdout.split('\n').filter(Boolean));
}

async function shallowBoundary(dir: string): Promise<Set<string>> {
  const gitPath = await runGitCommand(dir, ['rev-parse', '--git-path', 'shallow']);
  if (gitPath.code !== 0) return new Set();
  try {
    const text = await readFile(path.resolve(dir, gitPath.stdout.trim()), 'utf8');
    return new Set(text.split('\n').filter(Boolean));
  } catch {
    return new Set();
  }
}

/** Repository-wide statistics of a history (all commits read) and the analyzed part of it. */
export function computeStats(history: readonly CommitRecord[], analyzed: readonly CommitRecord[]): RepositoryStats {
  const sizes = analyzed.filter((c) => !c.isMerge && !c.isBoundary).map((c) => c.additions).sort((a, b) => a - b);
  const intervals = analyzed
    .filter((c) => c.previousAuthorTime !== null)
    .map((c) => c.authorTime - (c.previousAuthorTime ?? 0))
    .sort((a, b) => a - b);
  let first: number | null = null;
  let last: number | null = null;
  let totalAdditions = 0;
  let totalDeletions = 0;
  const authors = new Set<string>();
  for (const c of analyzed) {
    first = first === null ? c.authorTime : Math.min(first, c.authorTime);
    last = last === null ? c.authorTime : Math.max(last, c.authorTime);
    totalAdditions += c.additions;
    totalDeletions += c.deletions;
    authors.add(c.authorEmail.toLowerCase());
  }
  return {
    historyCommits: history.length,
    analyzedCommits: analyzed.length,
    authors: authors.size,
    firstCommitTime: first,
    lastCommitTime: last,
    totalAdditions,
    totalDeletions,
    medianAdditions: quantile(sizes, 0.5),
    p90Additions: quantile(sizes, 0.9),
    medianAuthorIntervalSeconds: intervals.length ? quantile(intervals, 0.5) : null,
  };
}

function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
}
