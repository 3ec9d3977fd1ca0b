import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { CadenceError } from '@cadence/errors';
import type { CommitFileChange, CommitRecord, RepositoryStats } from '@cadence/plugin-sdk';
import { excludeMatcher } from './exclude-matcher.js';
import { gitEnvironment, runGitCommand } from './git-process.js';
import { numstatPath } from './numstat-path.js';

export interface ReadHistoryOptions {
  /** The commit (or branch) to read history from. */
  readonly rev: string;
  /** A push's `before`: only before..rev are returned; the rest still feeds the baselines. */
  readonly before?: string | null;
  readonly excludeFiles: readonly string[];
  readonly signal?: AbortSignal;
  /** Commits read so far, called as they stream in. */
  readonly onProgress?: (read: number) => void;
}

export interface History {
  /** Oldest first. */
  readonly commits: CommitRecord[];
  readonly stats: RepositoryStats;
}

/** Kept per commit: enough for strategies and reports, bounded for 100,000-commit histories. */
const MAX_FILES_KEPT = 20;
const MAX_BODY_CHARS = 2000;
const RECORD = '\x1e';
const FIELD = '\x1f';
const HEADER_END = '\x1d';
const FORMAT = `--format=${RECORD}%H${FIELD}%P${FIELD}%an${FIELD}%ae${FIELD}%at${FIELD}%cn${FIELD}%ce${FIELD}%ct${FIELD}%B${HEADER_END}`;
const REV = /^[A-Za-z0-9._/-]+$/;

type MutableCommit = { -readonly [K in keyof CommitRecord]: CommitRecord[K] };

/**
 * Reads the history in ONE streaming `git log --numstat` process: its output is parsed record by
 * record as it arrives and kept only as compact CommitRecords, never as text.
 */
export async function readHistory(dir: string, options: ReadHistoryOptions): Promise<History> {
  if (!REV.test(options.rev) || options.rev.startsWith('-')) {
    throw new CadenceError('ERR_INVALID_SOURCE', { message: `Not a revision: ${JSON.stringify(options.rev)}` });
  }
  const inRange = options.before ? await rangeMembers(dir, options.before, options.rev, options.signal) : null;
  const boundary = await shallowBoundary(dir);
  const isExcluded = excludeMatcher(options.excludeFiles);
  const newestFirst = await streamLog(dir, options, (record) => parseRecord(record, isExcluded, boundary));
  const all = newestFirst.reverse();
  linkAuthorIntervals(all);
  const commits = inRange ? all.filter((c) => inRange.has(c.hash)) : all;
  return { commits, stats: computeStats(all, commits) };
}

function streamLog(dir: string, options: ReadHistoryOptions, parse: (record: string) => MutableCommit | null): Promise<MutableCommit[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      'git',
      ['-c', 'core.quotePath=false', 'log', '--numstat', '--no-color', '--no-ext-diff', FORMAT, '--end-of-options', options.rev, '--'],
      { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'], env: gitEnvironment() },
    );
    const commits: MutableCommit[] = [];
    let buffer = '';
    let stderr = '';
    const onAbort = (): void => {
      child.kill('SIGKILL');
    };
    options.signal?.addEventListener('abort', onAbort, { once: true });
    const take = (record: string): void => {
      const commit = parse(record);
      if (!commit) return;
      commits.push(commit);
      if (commits.length % 1000 === 0) options.onProgress?.(commits.length);
    };
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      buffer += chunk;
      let next = buffer.indexOf(RECORD, 1);
      while (next > 0) {
        take(buffer.slice(0, next));
        buffer = buffer.slice(next);
        next = buffer.indexOf(RECORD, 1);
      }
    });
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      if (stderr.length < 4096) stderr += chunk;
    });
    child.on('error', (error) => reject(new CadenceError('ERR_GIT_CLONE_FAILED', { message: `git log failed to start: ${error.message}` })));
    child.on('close', (code) => {
      options.signal?.removeEventListener('abort', onAbort);
      if (options.signal?.aborted) {
        const reason: unknown = options.signal.reason;
        reject(reason instanceof CadenceError ? reason : new CadenceError('ERR_CANCELLED'));
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
      if (buffer.length > 0) take(buffer);
      options.onProgress?.(commits.length);
      resolve(commits);
    });
  });
}

function parseRecord(record: string, isExcluded: (path: string) => boolean, boundary: ReadonlySet<string>): MutableCommit | null {
  const headerEnd = record.indexOf(HEADER_END);
  if (!record.startsWith(RECORD) || headerEnd < 0) return null;
  const fields = record.slice(1, headerEnd).split(FIELD);
  if (fields.length < 9) return null;
  const [hash = '', parentList = '', authorName = '', authorEmail = '', authorTime = '0', committerName = '', committerEmail = '', committerTime = '0'] = fields;
  const message = fields.slice(8).join(FIELD);
  const newline = message.indexOf('\n');
  const subject = (newline < 0 ? message : message.slice(0, newline)).trim();
  const body = boundedBody(newline < 0 ? '' : message.slice(newline + 1).trim());
  const parents = parentList ? parentList.split(' ') : [];

  let additions = 0;
  let deletions = 0;
  let excludedAdditions = 0;
  let excludedDeletions = 0;
  let filesChanged = 0;
  const files: CommitFileChange[] = [];
  for (const line of record.slice(headerEnd + 1).split('\n')) {
    if (!line) continue;
    const firstTab = line.indexOf('\t');
    const secondTab = line.indexOf('\t', firstTab + 1);
    if (firstTab < 0 || secondTab < 0) continue;
    const added = line.slice(0, firstTab);
    const deleted = line.slice(firstTab + 1, secondTab);
    const binary = added === '-' || deleted === '-';
    const fileAdditions = binary ? 0 : Number(added) || 0;
    const fileDeletions = binary ? 0 : Number(deleted) || 0;
    const filePath = numstatPath(line.slice(secondTab + 1));
    const excluded = isExcluded(filePath);
    filesChanged++;
    if (excluded) {
      excludedAdditions += fileAdditions;
      excludedDeletions += fileDeletions;
    } else {
      additions += fileAdditions;
      deletions += fileDeletions;
    }
    if (files.length < MAX_FILES_KEPT) files.push({ path: filePath, additions: fileAdditions, deletions: fileDeletions, binary, excluded });
  }
  return {
    hash,
    shortHash: hash.slice(0, 7),
    parents,
    authorName,
    authorEmail,
    authorTime: Number(authorTime),
    committerName,
    committerEmail,
    committerTime: Number(committerTime),
    subject,
    body,
    additions,
    deletions,
    excludedAdditions,
    excludedDeletions,
    filesChanged,
    files,
    filesTruncated: filesChanged > files.length,
    isMerge: parents.length > 1,
    isBoundary: boundary.has(hash),
    previousAuthorTime: null,
  };
}

/** Long bodies keep their start and their end: trailers (Co-authored-by, Signed-off-by) sit at the end. */
function boundedBody(body: string): string {
  if (body.length <= MAX_BODY_CHARS) return body;
  const half = MAX_BODY_CHARS / 2;
  return `${body.slice(0, half)}\n…\n${body.slice(-half)}`;
}

/**
 * Each commit's `previousAuthorTime`: the same author's closest earlier author date. Ordering by
 * date rather than by graph keeps rebased and cherry-picked histories from producing negative gaps.
 */
function linkAuthorIntervals(commits: MutableCommit[]): void {
  const byAuthor = new Map<string, MutableCommit[]>();
  for (const commit of commits) {
    const key = commit.authorEmail.toLowerCase();
    const list = byAuthor.get(key);
    if (list) list.push(commit);
    else byAuthor.set(key, [commit]);
  }
  for (const list of byAuthor.values()) {
    list.sort((a, b) => a.authorTime - b.authorTime);
    for (let i = 1; i < list.length; i++) list[i]!.previousAuthorTime = list[i - 1]!.authorTime;
  }
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
