import type { ClonedRepository } from '@cadence-detect/git-source';
import {
  chargeRework,
  defaultCacheRoot,
  keptLinesFile,
  loadKeptLines,
  pinnedGitDir,
  readHeadLines,
  readWholeHistoryPass,
  saveKeptLines,
  type AddedLineReadings,
  type CommitFileCounts,
  type GitBounds,
  type PassFiles,
  type SharedAuthorshipNotes,
  type WholeHistoryPass,
} from '@cadence-detect/git-source';
import type { AddedLinesReader, CommitRecord } from '@cadence-detect/plugin-sdk';
import path from 'node:path';
import type { EngineConfig } from '../engine-config.js';
import type { LineReadings } from '../line-shares.js';

/** What the kept pass is keyed by besides the repository: the configuration's exclusions. */
const keyOf = (excludeFiles: readonly string[]): string => JSON.stringify(['one-pass', 1, excludeFiles]);

/**
 * Where a repository's one pass is kept between analyses: in the server's mirror, or for a local
 * repository under `cache.repositories_dir` (else `$XDG_CACHE_HOME/cadence`), filed by its git
 * directory, never inside the repository; nowhere for a fresh clone. A kept pass is used only where
 * the analysed head descends from its head (listCommits in git-source).
 */
function keptFileOf(clone: ClonedRepository, local: boolean, config: EngineConfig): string | null {
  if (clone.mirrored) return path.join(clone.dir, 'cadence-lines.json');
  // A configuration with no cache section at all (an embedder's, a test's) keeps nothing.
  if (!local || !config.cache) return null;
  const root = config.cache.repositories_dir ?? defaultCacheRoot();
  if (!root) return null;
  return keptLinesFile(root, pinnedGitDir(clone.dir) ?? clone.dir);
}

/** How often the replay says how far it has got. */
const PROGRESS_EVERY_MS = 2_000;

/** The replay's progress as a sentence, at most every PROGRESS_EVERY_MS. */
export function replayProgress(
  say: (message: string) => void,
  now: () => number = Date.now,
): (replayed: number, toReplay: number) => void {
  let next = now() + PROGRESS_EVERY_MS;
  return (replayed, toReplay) => {
    if (now() < next) return;
    next = now() + PROGRESS_EVERY_MS;
    say(`counting lines: ${replayed.toLocaleString('en-US')} of ${toReplay.toLocaleString('en-US')} commits replayed`);
  };
}

/**
 * A whole history's lines, started beside the history read (both are one git read of the same
 * history; on two cores they take the time of the longer): the pass, kept and carried forward
 * between analyses, then, once the commits are known, the lines at HEAD and the rework.
 */
export class WholeHistoryLines {
  /** Dropped once read: the ledger (every line's writer, every commit's hash) is not kept through the rest of the analysis. */
  private pass: Promise<WholeHistoryPass> | null;

  constructor(
    private readonly clone: ClonedRepository,
    private readonly head: string,
    private readonly options: {
      readonly local: boolean;
      readonly config: EngineConfig;
      readonly excludeFiles: readonly string[];
      readonly isExcludedByConfig: (path: string) => boolean;
      readonly cache: boolean;
      readonly gitAiNotes: SharedAuthorshipNotes;
      /** Said every few seconds while the pass replays (a job's page is never silent through it). */
      readonly onProgress?: (message: string) => void;
      /** What strategies read of each commit's added lines. */
      readonly readers?: readonly AddedLinesReader[];
      /** The history read's bounds (`limits.max_diff_blob_mb`): the pass diffs within them too. */
      readonly bounds: GitBounds;
      readonly signal: AbortSignal;
    },
  ) {
    let plan: (replaysAll: boolean) => void = () => undefined;
    let counted: (counts: CommitFileCounts | null) => void = () => undefined;
    let files = new Promise<CommitFileCounts | null>((resolve) => (counted = resolve));
    this.passFiles = {
      replaysAll: new Promise((resolve) => (plan = resolve)),
      takeFiles: () => {
        const taken = files;
        files = Promise.resolve(null);
        return taken;
      },
    };
    this.told = { plan, counted };
    this.pass = this.run();
    // Marked handled now: awaited by `read`, where its failure is dealt with; the history read then counts its own files.
    this.pass.catch(() => {
      plan(false);
      counted(null);
    });
    this.readings = this.pass.then(
      (pass) => pass.readings,
      () => undefined,
    );
  }

  /** Each commit's files as the pass counts them, for the history read beside it (history.ts, `passFiles`). */
  readonly passFiles: PassFiles;
  private readonly told: {
    readonly plan: (replaysAll: boolean) => void;
    readonly counted: (counts: CommitFileCounts | null) => void;
  };

  /** The readers' numbers once the pass has replayed (before `read` blames the head); undefined if it failed. */
  readonly readings: Promise<AddedLineReadings | undefined>;

  private async run(omitPaths?: readonly string[]): Promise<WholeHistoryPass> {
    return readWholeHistoryPass(this.clone.dir, this.head, {
      isExcludedByConfig: this.options.isExcludedByConfig,
      ...(this.options.cache ? { loadKept: () => this.loadKept() } : {}),
      gitAiNotes: this.options.gitAiNotes,
      ...(this.options.onProgress ? { onProgress: replayProgress(this.options.onProgress) } : {}),
      ...(this.options.readers?.length ? { readers: this.options.readers } : {}),
      bounds: this.options.bounds,
      signal: this.options.signal,
      // A pass run again without unreadable files counts no history read's files.
      ...(omitPaths?.length
        ? { omitPaths }
        : {
            onPlan: (replaysAll: boolean) => this.told.plan(replaysAll),
            onCounts: (counts) => this.told.counted(counts),
          }),
    });
  }

  /** `--no-cache` (options.cache false) neither reads nor keeps a pass. */
  private async loadKept() {
    const file = this.keptFile();
    return file ? loadKeptLines(file, keyOf(this.options.excludeFiles)) : null;
  }

  private keptFile(): string | null {
    if (!this.options.cache) return null;
    return keptFileOf(this.clone, this.options.local, this.options.config);
  }

  /**
   * The readings, once the history's commits are known. A repository that lacks file versions
   * (`unreadable`) is read again without those files when the first pass failed on them.
   */
  async read(
    commits: readonly CommitRecord[],
    maxFiles: number,
    signal: AbortSignal,
    unreadable: readonly string[] | undefined,
    onSaveFailure: (error: unknown) => void,
    onReaderFailure?: (key: string, error: unknown) => void,
  ): Promise<LineReadings & { readonly summary: string }> {
    const pending = this.pass;
    if (!pending) throw new Error('the line pass is read once');
    this.pass = null;
    const pass = await pending.catch((error: unknown) => {
      if (unreadable?.length) return this.run(unreadable);
      throw error;
    });
    const head = await readHeadLines(this.clone.dir, this.head, {
      isExcluded: pass.tree.isExcluded,
      tree: pass.tree,
      records: pass.records,
      ledger: pass.ledger,
      maxFiles,
      signal,
    });
    const rework = chargeRework(pass, commits);
    for (const { key, error } of pass.readerFailures) onReaderFailure?.(key, error);
    const file = this.keptFile();
    if (file)
      await saveKeptLines(file, keyOf(this.options.excludeFiles), {
        ledger: pass.ledger,
        rework,
        context: pass.context,
        readings: pass.readings,
        ...(pass.counts ? { counts: pass.counts } : {}),
      }).catch(onSaveFailure);
    const summary = `lines in one pass over ${commits.length} ${commits.length === 1 ? 'commit' : 'commits'}${pass.resumedFrom ? ` (${pass.resumedFrom.ledger.commits.length} of them kept from the last analysis)` : ''}: ${head.blamedFiles ?? 0} files blamed, ${pass.ledger.movedLines} moved lines kept with their writers`;
    return {
      head,
      reworked: rework.lines,
      reworkedMarked: rework.marked,
      records: pass.records,
      summary,
      addedLineReadings: pass.readings,
    };
  }
}
