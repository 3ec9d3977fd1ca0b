import { createHash } from 'node:crypto';
import type { CommitRecord } from '@cadence-detect/plugin-sdk';
import { replayLedger, type Ledger } from './history-ledger.js';
import { readLineTree, type LineTree } from './head-lines.js';
import { DEFAULT_GIT_BOUNDS, runGitCommand, type GitBounds } from './git-process.js';
import { stringInterner } from './own-string.js';
import { isTraceFile, readLineRecords, type LineRecords } from './line-records.js';
import type { SharedAuthorshipNotes } from './authorship-notes.js';
import { REWORK_WINDOW_SECONDS, type ReworkedLines } from './rework.js';
import { carriesForward, type KeptLines } from './ledger-cache.js';
import { CadenceError, itemAt } from '@cadence-detect/errors';
import type { AddedLinesReader } from '@cadence-detect/plugin-sdk';
import { AddedLinesReading, type AddedLineReadings } from './added-lines.js';
import { FileCountCollector, type CommitFileCounts, type KeptCounts } from './pass-counts.js';

/** What one pass over a whole history found, before the history's commit records are known. */
export interface WholeHistoryPass {
  readonly tree: LineTree;
  readonly records: LineRecords;
  readonly ledger: Ledger;
  /** Each commit's files as numstat counts them (pass-counts.ts), kept with the pass; null when a kept pass carried forward had none. */
  readonly counts: KeptCounts | null;
  /** Deleted lines by (deleting commit, writer, marked) as one number (deletionKey): rework is charged from them once the commits' dates are known. */
  readonly deletions: ReadonlyMap<number, number>;
  /** The kept pass it carried forward, if any (its rework stands). */
  readonly resumedFrom: KeptLines | null;
  /** What the pass depended on besides the history (KeptLines.context). */
  readonly context: string;
  /** What each reader returned per commit (kept ones included); a reader that threw is absent. */
  readonly readings: AddedLineReadings;
  /** The readers that threw, each with its first error. */
  readonly readerFailures: readonly { readonly key: string; readonly error: unknown }[];
}

export interface WholeHistoryOptions {
  /** `exclude_files` and linguist's defaults (the tree's `.gitattributes` come on top). */
  readonly isExcludedByConfig: (path: string) => boolean;
  /** The pass kept for this repository, if any: carried forward when the history only grew from its head. */
  readonly loadKept?: () => Promise<KeptLines | null>;
  /** Files some of whose versions the repository lacks: left out. */
  readonly omitPaths?: readonly string[];
  /**
   * What each git child may cost (the history read's): a file version above the blob cap
   * (`limits.max_diff_blob_mb`) has no line diff, as the verdicts' read counts it. DEFAULT_GIT_BOUNDS when absent.
   */
  readonly bounds?: GitBounds;
  /** The analysis's one read of refs/notes/ai. */
  readonly gitAiNotes?: SharedAuthorshipNotes;
  /** Progress of the replay: commits replayed so far, of those to replay. */
  readonly onProgress?: (replayed: number, toReplay: number) => void;
  /** What strategies read of each commit's added lines (a kept pass without one of them is replayed whole). */
  readonly readers?: readonly AddedLinesReader[];
  readonly signal?: AbortSignal;
  /**
   * Told once the commits are listed: whether the pass diffs every commit (no kept pass to carry
   * forward); then, after the replay, each commit's files as numstat counts them (null when the pass
   * carried a kept one forward or could not name a file): what the history read takes its files from.
   */
  readonly onPlan?: (replaysAll: boolean) => void;
  readonly onCounts?: (counts: CommitFileCounts | null) => void;
}

/**
 * A whole history's lines in one pass, independent of the history read so that both run side by
 * side: the commits and their parents from one `git rev-list --parents`, the tree and its line
 * records at `head`, then the ledger (history-ledger.ts), carried forward from a kept pass when the
 * history only grew from its head: then only the commits since are listed and replayed.
 */
export async function readWholeHistoryPass(
  dir: string,
  head: string,
  options: WholeHistoryOptions,
): Promise<WholeHistoryPass> {
  const [listing, tree] = await Promise.all([
    listCommits(dir, head, options.loadKept, options.signal).then((listed) => {
      // Counts for every commit: a replay from the root, or a kept pass that kept its counts.
      options.onPlan?.(listed.kept === null || listed.kept.counts !== undefined);
      return listed;
    }),
    readLineTree(dir, head, options.isExcludedByConfig, options.signal, undefined, options.omitPaths, options.bounds),
  ]);
  const { kept, since } = listing;
  const records = await readLineRecords(dir, head, {
    // The whole history's commits, kept ones included: the context below compares them.
    commits: kept && since ? new Set([...kept.ledger.commits, ...since.keys()]) : new Set(listing.parents.keys()),
    traceFiles: [...tree.files.keys()].filter(isTraceFile),
    ...(options.gitAiNotes ? { gitAiNotes: options.gitAiNotes } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
  });
  const context = passContext(tree, records, options.bounds);
  const readers = options.readers ?? [];
  const { onProgress } = options;
  const readersKept = readers.every((reader) => kept?.readings?.has(reader.key));
  const resumedFrom = kept && since && kept.context === context && readersKept ? kept : null;
  const reading = new AddedLinesReading(readers, resumedFrom?.readings);
  // Carried forward: the commits since; else the whole history (listed again when only the context changed).
  const parents =
    resumedFrom && since ? since : since ? await historyParents(dir, head, options.signal) : listing.parents;
  const deletions = new Map<number, number>();
  const counts = countCollector(resumedFrom, options.omitPaths);
  const ledger = await replayLedger(dir, head, {
    ...(counts ? { counts } : {}),
    follows: (path) => !tree.isExcluded(path),
    parents,
    ...(records.byCommit.size > 0 ? { recorded: (commit, path) => records.byCommit.get(commit)?.get(path) } : {}),
    onDeletion: ({ by, writer, marked }) => {
      if (writer === null) return;
      const key = deletionKey(by, writer, marked);
      deletions.set(key, (deletions.get(key) ?? 0) + 1);
    },
    ...(resumedFrom ? { resume: resumedFrom.ledger } : {}),
    ...(readers.length > 0 ? { onCommitAdded: (hash: string, lines) => reading.read(hash, lines) } : {}),
    ...(onProgress ? { onReplayed: (replayed: number) => onProgress(replayed, parents.size) } : {}),
    ...(options.omitPaths?.length ? { omitPaths: options.omitPaths } : {}),
    ...(options.bounds ? { bounds: options.bounds } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
  });
  options.onCounts?.(counts?.result() ?? null);
  return {
    tree,
    records,
    ledger,
    counts: counts?.kept() ?? null,
    deletions,
    resumedFrom,
    context,
    readings: reading.result(),
    readerFailures: reading.failures,
  };
}

/**
 * Counted whenever the counts can cover the whole history (a replay from the root, or a kept pass
 * that kept them), so that the kept pass keeps them too; never by a pass that left files out (a
 * repository lacking versions of them): numstat's read finds and reports those.
 */
function countCollector(
  resumedFrom: KeptLines | null,
  omitPaths: readonly string[] | undefined,
): FileCountCollector | undefined {
  if (omitPaths?.length) return undefined;
  return !resumedFrom || resumedFrom.counts ? new FileCountCollector(resumedFrom?.counts) : undefined;
}

/**
 * What a pass depended on besides the history: a kept pass carries forward only when the same
 * files were followed, the same records read and the same blob cap applied (a version above it has
 * no line diff, so the ledger differs). The default cap adds nothing: passes kept before it was
 * part of the context still carry forward.
 */
function passContext(tree: LineTree, records: LineRecords, bounds: GitBounds | undefined): string {
  const cap = bounds?.maxDiffBlobBytes ?? DEFAULT_GIT_BOUNDS.maxDiffBlobBytes;
  return createHash('sha256')
    .update(
      JSON.stringify([
        [...tree.files.keys()].filter((path) => tree.isExcluded(path)).sort(),
        [...records.byCommit].map(([commit, files]) => [commit, [...files]]),
        ...(cap === DEFAULT_GIT_BOUNDS.maxDiffBlobBytes ? [] : [cap]),
      ]),
    )
    .digest('hex');
}

/** A kept pass's head: a full commit id (the file is ours, but a damaged one must not become an argument). */
const COMMIT_ID = /^[0-9a-f]{40}(?:[0-9a-f]{24})?$/;

/**
 * The commits to replay: with a kept pass that carries forward (carriesForward), only the commits
 * since its head (`since`), without a walk of the whole history; else every commit (`parents`).
 */
async function listCommits(
  dir: string,
  head: string,
  loadKept: (() => Promise<KeptLines | null>) | undefined,
  signal?: AbortSignal,
): Promise<{
  kept: KeptLines | null;
  since: Map<string, readonly string[]> | null;
  parents: Map<string, readonly string[]>;
}> {
  const kept = loadKept ? await loadKept() : null;
  if (kept && COMMIT_ID.test(kept.ledger.head)) {
    const listed = await runGitCommand(
      dir,
      ['rev-list', '--parents', '--end-of-options', head, `^${kept.ledger.head}`, '--'],
      signal,
    );
    const since = listed.code === 0 ? parseParents(listed.stdout) : null;
    if (since && carriesForward(kept.ledger.head, since)) return { kept, since, parents: since };
  }
  return { kept: null, since: null, parents: await historyParents(dir, head, signal) };
}

/**
 * Rework from a pass's deletions: a line deleted within the window of its writer's author date
 * charges the writer (a moved line was never a deletion); a carried-forward pass's rework stands.
 */
export function chargeRework(
  pass: WholeHistoryPass,
  commits: readonly CommitRecord[],
  windowSeconds = REWORK_WINDOW_SECONDS,
): ReworkedLines {
  const byHash = new Map(commits.map((c) => [c.hash, c]));
  const lines = new Map<string, number>(pass.resumedFrom?.rework.lines ?? []);
  const marked = new Map<string, number>(pass.resumedFrom?.rework.marked ?? []);
  const hashes = pass.ledger.commits;
  for (const [key, count] of pass.deletions) {
    const { by, writer, isMarked } = fromDeletionKey(key);
    const deleter = byHash.get(itemAt(hashes, by));
    const written = byHash.get(itemAt(hashes, writer));
    if (!deleter || !written) continue;
    if (deleter.authorTime - written.authorTime > windowSeconds || written.authorTime > deleter.authorTime) continue;
    lines.set(written.hash, (lines.get(written.hash) ?? 0) + count);
    if (isMarked) marked.set(written.hash, (marked.get(written.hash) ?? 0) + count);
  }
  return { lines, marked };
}

/** Commit indexes below 2^24 (16 million commits) keep the key below 2^53: an exact number. */
const INDEX_SPAN = 2 ** 24;
const deletionKey = (by: number, writer: number, marked: boolean): number =>
  (by * INDEX_SPAN + writer) * 2 + (marked ? 1 : 0);
function fromDeletionKey(key: number): { by: number; writer: number; isMarked: boolean } {
  const pair = Math.floor(key / 2);
  return { by: Math.floor(pair / INDEX_SPAN), writer: pair % INDEX_SPAN, isMarked: key % 2 === 1 };
}

/** Every commit reachable from `head`, with its parents (one `git rev-list --parents`). */
async function historyParents(
  dir: string,
  head: string,
  signal?: AbortSignal,
): Promise<Map<string, readonly string[]>> {
  const listed = await runGitCommand(dir, ['rev-list', '--parents', '--end-of-options', head, '--'], signal);
  if (listed.code !== 0)
    throw new CadenceError('ERR_GIT_READ_FAILED', {
      message: `git rev-list failed: ${listed.stderr.trim().split('\n')[0] ?? ''}`,
    });
  return parseParents(listed.stdout);
}

/** `git rev-list --parents` output: each commit's parents. */
function parseParents(text: string): Map<string, readonly string[]> {
  const parents = new Map<string, readonly string[]>();
  // Copies, one per commit (a hash is also its children's parent): slices would keep the whole output alive.
  const intern = stringInterner();
  for (const line of text.split('\n')) {
    if (!line) continue;
    const [hash = '', ...of] = line.split(' ');
    parents.set(intern(hash), of.map(intern));
  }
  return parents;
}
