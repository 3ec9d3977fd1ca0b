import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { CadenceError } from '@cadence-detect/errors';
import { uniqueAbbreviations } from './abbreviations.js';
import { linkAuthorIntervals } from './author-intervals.js';
import { copiedCommits } from './cherry-picks.js';
import type { CommitRecord, RepositoryStats } from '@cadence-detect/plugin-sdk';
import { addCountedFiles, type MutableCommit, type ReadCommit } from './commit-record.js';
import { excludeMatcher } from './exclude-matcher.js';
import { DEFAULT_GIT_BOUNDS, runGitCommand, type GitBounds } from './git-process.js';
import { runLog } from './history-log.js';
import { MISSING_OBJECT, missingBlobs, type MissingBlobs } from './missing-objects.js';
import type { HistoryCache } from './history-cache.js';
import { isFullCommitId } from '@cadence-detect/plugin-sdk';
import { markOversized, type BinaryFile } from './oversized-files.js';
import { chooseMailmap, type MailmapChoice } from './mailmap.js';
import type { PassFiles } from './pass-counts.js';
import { stringInterner } from './own-string.js';

export interface ReadHistoryOptions {
  /** The commit (or branch) to read history from. */
  readonly rev: string;
  /** A push's `before`: only before..rev are returned; the rest still feeds the baselines. */
  readonly before?: string | null;
  /** Unix seconds: only commits authored from then are returned; the rest still feeds the baselines. */
  readonly since?: number | null;
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
  /**
   * What each git child may cost (git-process.ts): blobs above `maxDiffBlobBytes` count as binary
   * without a line diff, and a child past `addressSpaceBytes` fails the read with
   * ERR_REPOSITORY_TOO_LARGE. DEFAULT_GIT_BOUNDS when absent.
   */
  readonly bounds?: GitBounds;
  /**
   * A niceness (1 to 19) for the log's git process: set when the one line pass reads the same
   * history beside it. The pass's `git log -p` is the longer of the two reads and the analysis ends
   * with it, so on few cores it goes first and this log takes the CPU it leaves. Absent: git runs
   * at the process's own priority.
   */
  readonly niceness?: number;
  /**
   * The one line pass reading the same whole history beside this read (pass-counts.ts): when it
   * diffs every commit, the log lists the commits alone and takes their files from the pass's
   * counts, rather than diffing every blob a second time. Used for a whole history read afresh (no
   * range, no `since`, nothing cached, nothing left out); the counts are numstat's.
   */
  readonly passFiles?: PassFiles;
}

type LogOptions = ReadHistoryOptions & { readonly mailmap: MailmapChoice };

export interface History {
  /** Oldest first. */
  readonly commits: CommitRecord[];
  readonly stats: RepositoryStats;
  /**
   * Files of the returned commits counted as binary, without a line diff, because a side of them is
   * larger than `bounds.maxDiffBlobBytes`: their lines are in no total.
   */
  readonly oversizedFiles: number;
  /** The commits that have such files (full hashes, oldest first, at most OVERSIZED_COMMITS_LISTED). */
  readonly oversizedCommits: readonly string[];
  /**
   * Objects the repository lacks (a damaged or partial clone): the returned commits whose diff names
   * a missing blob (full hashes, oldest first), judged without that file's lines, and the files.
   */
  readonly unreadable?: { readonly commits: readonly string[]; readonly files: readonly string[] };
  /** The size of a `.mailmap` left unapplied because it is above BLOB_CAPS.mailmap, when one was. */
  readonly mailmapSkippedBytes?: number;
}

/** How many commits with oversized files a History names. */
export const OVERSIZED_COMMITS_LISTED = 20;

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
  const { mailmap, skippedBytes } = await chooseMailmap(dir, options.before ?? options.rev, options.signal);
  // The range's members and the history are independent reads of the same repository: side by side,
  // a push's job waits for the slower one instead of both (each is a git process of its own).
  const [inRange, fromLog] = await Promise.all([
    options.before ? rangeMembers(dir, options.before, options.rev, options.signal) : null,
    shallowBoundary(dir).then((boundary) => readCommits(dir, { ...options, mailmap }, isExcluded, boundary)),
  ]);
  const { read, missing: damaged } = fromLog;
  fillUnknownTimes(read);
  const dated = read.filter((c) => !c.authorTimeUnknown).map((c) => c.record);
  linkAuthorIntervals(dated, await copiedCommits(dir, dated, options.signal, options.bounds ?? DEFAULT_GIT_BOUNDS));
  const abbreviations = uniqueAbbreviations(read.map((c) => c.record.hash));
  for (const commit of read) commit.record.shortHash = abbreviations.get(commit.record.hash) ?? commit.record.shortHash;
  const all = read.map((c) => c.record);
  const since = options.since ?? null;
  const wanted = (c: CommitRecord): boolean =>
    (!inRange || inRange.has(c.hash)) && (since === null || c.authorTime >= since);
  const commits = inRange || since !== null ? all.filter(wanted) : all;
  let oversizedFiles = 0;
  const oversizedCommits: string[] = [];
  for (const commit of read) {
    if (commit.oversizedFiles === 0 || !wanted(commit.record)) continue;
    oversizedFiles += commit.oversizedFiles;
    if (oversizedCommits.length < OVERSIZED_COMMITS_LISTED) oversizedCommits.push(commit.record.hash);
  }
  const unreadable = damaged ? commits.filter((c) => damaged.commits.has(c.hash)).map((c) => c.hash) : [];
  return {
    commits,
    stats: computeStats(all, commits),
    oversizedFiles,
    oversizedCommits,
    ...(damaged ? { unreadable: { commits: unreadable, files: [...damaged.files].sort() } } : {}),
    ...(skippedBytes !== undefined ? { mailmapSkippedBytes: skippedBytes } : {}),
  };
}

/** Oldest first; with a cache, the cached history plus what came after its head when `rev` descends from it. */
async function readCommits(
  dir: string,
  options: LogOptions,
  isExcluded: (path: string) => boolean,
  boundary: ReadonlySet<string>,
): Promise<{ read: ReadCommit[]; missing?: MissingBlobs }> {
  const cache = isFullCommitId(options.rev) && boundary.size === 0 ? options.cache : undefined;
  const key = JSON.stringify([path.resolve(dir), options.excludeFiles, options.omitPaths ?? [], options.mailmap.blob]);
  const cached = cache?.take(key);
  let read: ReadCommit[];
  let missing: MissingBlobs | undefined;
  if (cached && cached.head === options.rev) read = cached.read;
  else if (
    cached &&
    (await runGitCommand(dir, ['merge-base', '--is-ancestor', cached.head, options.rev], options.signal)).code === 0
  ) {
    const { passFiles: _unused, ...ranged } = options;
    const newer = await streamLog(dir, { ...ranged, rev: `${cached.head}..${options.rev}` }, isExcluded, boundary);
    read = [...cached.read, ...newer.commits.reverse()];
    missing = newer.missing;
  } else {
    const all = await streamLog(dir, options, isExcluded, boundary);
    read = all.commits.reverse();
    missing = all.missing;
  }
  // Kept as read, before the history-wide passes below change the records; a damaged read is not kept.
  if (!missing) cache?.set(key, options.rev, read);
  return missing ? { read, missing } : { read };
}

async function streamLog(
  dir: string,
  options: LogOptions,
  isExcluded: (path: string) => boolean,
  boundary: ReadonlySet<string>,
): Promise<{ commits: ReadCommit[]; missing?: MissingBlobs }> {
  const bounds = options.bounds ?? DEFAULT_GIT_BOUNDS;
  const binaries: BinaryFile[] = [];
  let commits: ReadCommit[];
  let found: MissingBlobs | undefined;
  try {
    commits =
      (await countedByPass(dir, options, bounds, { isExcluded, boundary, binaries })) ??
      (await runLog(dir, options, bounds, { isExcluded, boundary, binaries }));
  } catch (error) {
    // A damaged or partial clone lacks some blobs: read the rest, the files with a missing version
    // left out (every commit still listed), and name the commits whose diff could not be read.
    if (!(error instanceof CadenceError) || !MISSING_OBJECT.test(error.message) || options.omitPaths) throw error;
    const missing = await missingBlobs(dir, options.rev, options.signal);
    if (missing.files.size === 0) throw error;
    binaries.length = 0;
    commits = await runLog(dir, { ...options, omitPaths: [...missing.files] }, bounds, {
      isExcluded,
      boundary,
      binaries,
      everyCommit: true,
    });
    found = missing;
  }
  await markOversized(dir, binaries, bounds, options.signal);
  return found ? { commits, missing: found } : { commits };
}

/**
 * The commits alone (`git log` with no diff), their files from the line pass's counts: null when
 * there is no pass beside this read, it does not diff every commit, or it failed (numstat then).
 */
async function countedByPass(
  dir: string,
  options: LogOptions,
  bounds: GitBounds,
  reading: { isExcluded: (path: string) => boolean; boundary: ReadonlySet<string>; binaries: BinaryFile[] },
): Promise<ReadCommit[] | null> {
  const pass = options.passFiles;
  if (!pass || options.omitPaths?.length || options.before || !(await pass.replaysAll)) return null;
  const commits = await runLog(dir, options, bounds, { ...reading, binaries: [], counted: false });
  const counts = await pass.takeFiles();
  if (!counts) return null;
  const intern = stringInterner();
  const recount = new Map<string, number>();
  for (const [at, commit] of commits.entries()) {
    const { hash, parents, isMerge } = commit.record;
    if (isMerge) continue;
    const files = counts.filesOf(hash);
    // A commit the pass did not list: the pass's history is not this one.
    if (files === undefined) return null;
    if (files === null) recount.set(hash, at);
    else
      for (const path of addCountedFiles(commit, files, reading.isExcluded, intern))
        reading.binaries.push({ commit, parent: parents[0] ?? '', path });
  }
  // The commits whose patch does not say what numstat prints: numstat's own records of them.
  if (recount.size > 0)
    for (const commit of await runLog(dir, options, bounds, { ...reading, only: [...recount.keys()] })) {
      const at = recount.get(commit.record.hash);
      if (at !== undefined) commits[at] = commit;
    }
  return commits;
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

async function rangeMembers(
  dir: string,
  before: string,
  rev: string,
  signal?: AbortSignal,
): Promise<Set<string> | null> {
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
  const sizes = analyzed
    .filter((c) => !c.isMerge && !c.isBoundary)
    .map((c) => c.additions)
    .sort((a, b) => a - b);
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
