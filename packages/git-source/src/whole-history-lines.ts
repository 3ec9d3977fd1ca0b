import { createHash } from 'node:crypto';
import type { CommitRecord } from '@cadence-detect/plugin-sdk';
import { replayLedger, resumable, type Ledger } from './history-ledger.js';
import { readLineTree, type LineTree } from './head-lines.js';
import { runGitCommand } from './git-process.js';
import { isTraceFile, readLineRecords, type LineRecords } from './line-records.js';
import type { SharedAuthorshipNotes } from './authorship-notes.js';
import { REWORK_WINDOW_SECONDS, type ReworkedLines } from './rework.js';
import type { KeptLines } from './ledger-cache.js';
import { CadenceError } from '@cadence-detect/errors';

/** What one pass over a whole history found, before the history's commit records are known. */
export interface WholeHistoryPass {
  readonly tree: LineTree;
  readonly records: LineRecords;
  readonly ledger: Ledger;
  /** Deleted lines by (deleting commit, writer, marked) as one number (deletionKey): rework is charged from them once the commits' dates are known. */
  readonly deletions: ReadonlyMap<number, number>;
  /** The kept pass it carried forward, if any (its rework stands). */
  readonly resumedFrom: KeptLines | null;
  /** The history's first commit (of several roots, the least hash): what a kept pass is filed by. */
  readonly firstCommit: string | null;
  /** What the pass depended on besides the history (KeptLines.context). */
  readonly context: string;
}

export interface WholeHistoryOptions {
  /** `exclude_files` and linguist's defaults (the tree's `.gitattributes` come on top). */
  readonly isExcludedByConfig: (path: string) => boolean;
  /** The pass kept for the repository whose first commit is this, if any (read once the history's commits are listed). */
  readonly loadKept?: (firstCommit: string) => Promise<KeptLines | null>;
  /** Files some of whose versions the repository lacks: left out. */
  readonly omitPaths?: readonly string[];
  /** The analysis's one read of refs/notes/ai. */
  readonly gitAiNotes?: SharedAuthorshipNotes;
  /** Progress of the replay: commits replayed so far, of those to replay. */
  readonly onProgress?: (replayed: number, toReplay: number) => void;
  readonly signal?: AbortSignal;
}

/**
 * A whole history's lines in one pass, independent of the history read so that both run side by
 * side: the commits and their parents from one `git rev-list --parents`, the tree and its line
 * records at `head`, then the ledger (history-ledger.ts), carried forward from `kept` when the
 * history only grew from the kept head.
 */
export async function readWholeHistoryPass(
  dir: string,
  head: string,
  options: WholeHistoryOptions,
): Promise<WholeHistoryPass> {
  const [parents, tree] = await Promise.all([
    historyParents(dir, head, options.signal),
    readLineTree(dir, head, options.isExcludedByConfig, options.signal, undefined, options.omitPaths),
  ]);
  // The roots come with the parents: no second walk of the history to find them.
  const firstCommit =
    [...parents]
      .filter(([, of]) => of.length === 0)
      .map(([hash]) => hash)
      .sort()[0] ?? null;
  const kept = firstCommit && options.loadKept ? await options.loadKept(firstCommit) : null;
  const records = await readLineRecords(dir, head, {
    commits: new Set(parents.keys()),
    traceFiles: [...tree.files.keys()].filter(isTraceFile),
    ...(options.gitAiNotes ? { gitAiNotes: options.gitAiNotes } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
  });
  // A kept pass carries forward only when the same files were followed and the same records read.
  const context = createHash('sha256')
    .update(
      JSON.stringify([
        [...tree.files.keys()].filter((path) => tree.isExcluded(path)).sort(),
        [...records.byCommit].map(([commit, files]) => [commit, [...files]]),
      ]),
    )
    .digest('hex');
  const resumedFrom = kept && kept.context === context && resumable(kept.ledger, parents) ? kept : null;
  const deletions = new Map<number, number>();
  const ledger = await replayLedger(dir, head, {
    follows: (path) => !tree.isExcluded(path),
    parents,
    ...(records.byCommit.size > 0 ? { recorded: (commit, path) => records.byCommit.get(commit)?.get(path) } : {}),
    onDeletion: ({ by, writer, marked }) => {
      if (writer === null) return;
      const key = deletionKey(by, writer, marked);
      deletions.set(key, (deletions.get(key) ?? 0) + 1);
    },
    ...(resumedFrom ? { resume: resumedFrom.ledger } : {}),
    ...(options.onProgress
      ? {
          onReplayed: (replayed: number) =>
            options.onProgress!(replayed, parents.size - (resumedFrom?.ledger.commits.length ?? 0)),
        }
      : {}),
    ...(options.omitPaths?.length ? { omitPaths: options.omitPaths } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
  });
  return { tree, records, ledger, deletions, resumedFrom, firstCommit, context };
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
    const deleter = byHash.get(hashes[by]!);
    const written = byHash.get(hashes[writer]!);
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
  const parents = new Map<string, readonly string[]>();
  for (const line of listed.stdout.split('\n')) {
    if (!line) continue;
    const [hash, ...of] = line.split(' ');
    parents.set(hash!, of);
  }
  return parents;
}
