import { CadenceError } from '@cadence-detect/errors';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseSize } from '@cadence-detect/config/units';
import {
  DEFAULT_MAX_REQUESTS,
  DEFAULT_GIT_BOUNDS,
  diffExcerpt,
  excludeMatcher,
  HistoryCache,
  openRepository,
  parseRepositoryUrl,
  readHeadPaths,
  readHistory,
  runGitCommand,
  SharedAuthorshipNotes,
  type GitBounds,
  type MirrorOptions,
  type ClonedRepository,
} from '@cadence-detect/git-source';
import type { AddedLinesReader, AnalysisEvent, AnalysisResult } from '@cadence-detect/plugin-sdk';
import type { AnalysisRequest, AnalyzeOptions } from '../analysis-request.js';
import type { EngineConfig } from '../engine-config.js';
import type { EngineLogger } from '../engine-logger.js';
import type { PreparedRepository } from '../prepared-source.js';
import { redactUrl } from './redact-url.js';
import { WholeHistoryLines } from './whole-history-lines.js';
import { readProgress } from './read-progress.js';
import { lineReaderOf } from './line-reader.js';
import { resolveRange } from './range-resolution.js';
import { readBesideHistory } from './beside-history.js';
import { reportReadProblems } from './history-warnings.js';

/** A kept result that answered before the history was read (AcquireOptions.answerFromCache). */
export interface CachedAnswer {
  readonly kind: 'cached';
  readonly result: AnalysisResult;
}

interface AcquireOptions extends AnalyzeOptions {
  /** Asked once the head is known: a result it gives ends the acquisition, the clone disposed. */
  readonly answerFromCache?: (info: PreparedRepository['info']) => Promise<AnalysisResult | undefined>;
  readonly signal: AbortSignal;
  readonly emit: (event: AnalysisEvent) => void;
  readonly config: EngineConfig;
  readonly excludeFiles: readonly string[];
  readonly logger: EngineLogger;
  /** What strategies read of each commit's added lines, in the whole history's one pass. */
  readonly readers?: readonly AddedLinesReader[];
}

/** Where mirrors live and their cap, from `cache.repositories_*`; null when turned off (size 0). */
function mirrorsOf(config: EngineConfig): MirrorOptions | null {
  if (!config.cache) return null;
  const maxBytes = parseSize(config.cache.repositories_max_size);
  if (!(maxBytes > 0)) return null;
  return { dir: config.cache.repositories_dir ?? path.join(tmpdir(), 'cadence-mirrors'), maxBytes };
}

/** What each git child reading the history may cost: `limits.max_diff_blob_mb`, and the default memory ceiling. */
function gitBoundsOf(config: EngineConfig): GitBounds {
  const blobMb = config.limits.max_diff_blob_mb;
  return blobMb === undefined ? DEFAULT_GIT_BOUNDS : { ...DEFAULT_GIT_BOUNDS, maxDiffBlobBytes: blobMb * 1024 * 1024 };
}

/**
 * Histories read from mirrors in this process: a push to a repository seen before reads only its
 * new commits. At most 100,000 commits are held (about 100 MB).
 */
const mirroredHistories = new HistoryCache(100_000);

/** Clones the requested repository (or opens a local one), saying so as it goes. */
async function openRequested(
  request: Extract<AnalysisRequest, { kind: 'repository' }>,
  locator: ReturnType<typeof parseRepositoryUrl>,
  options: AcquireOptions,
): Promise<ClonedRepository> {
  const { signal, emit, config } = options;
  emit({ event: 'start', repo: locator.repo });
  emit({
    event: 'fetch',
    message: locator.kind === 'local' ? `reading ${locator.path}` : `cloning ${redactUrl(request.url)}`,
  });
  const clone = await openRepository(locator, {
    ...(request.branch ? { branch: request.branch } : {}),
    depth: config.git.depth,
    timeoutMs: config.limits.clone_timeout_seconds * 1000,
    maxSizeBytes: config.limits.max_repo_size_mb * 1024 * 1024,
    signal,
    policy: options.network,
    logger: options.logger,
    onProgress: (message: string) => emit({ event: 'fetch', message }),
    ...(request.range ? { fetchCommit: request.range.after } : {}),
    ...(request.ref ? { fetchRef: request.ref } : {}),
    ...(request.squash ? { optionalRefs: [request.squash.ref] } : {}),
    // A whole history's squash commits are judged by their requests' own commits where the forge keeps them.
    ...(request.range ? {} : { requestHeads: config.limits.max_request_heads ?? DEFAULT_MAX_REQUESTS }),
    mirrors: mirrorsOf(config),
    ...(options.gitAuthorization ? { httpAuthorization: options.gitAuthorization } : {}),
  });
  // The branch is known from here on: a job that named none shows it now, not only in its result.
  // A local path is read where it is, never cloned: the event says which happened.
  emit({
    event: 'fetch',
    message: locator.kind === 'local' ? 'opened' : 'cloned',
    ...(clone.branch ? { branch: clone.branch } : {}),
  });
  if (locator.kind === 'local') {
    // A partial clone fetches the file versions the history read needs: said before it starts.
    const promisor = await runGitCommand(clone.dir, ['config', '--get', 'extensions.partialClone'], signal);
    if (promisor.code === 0 && promisor.stdout.trim()) {
      emit({
        event: 'fetch',
        message: `a partial clone: reading its history fetches the file versions it lacks from its remote "${promisor.stdout.trim().slice(0, 60)}"; what cannot be fetched is left out and counted (unreadable_commits)`,
      });
    }
  }
  return clone;
}

/** Clones (or opens) the repository and reads its history: the source the strategies run on. */
export async function acquireRepository(
  request: Extract<AnalysisRequest, { kind: 'repository' }>,
  options: AcquireOptions,
): Promise<PreparedRepository | CachedAnswer> {
  const { signal, emit } = options;
  const locator = parseRepositoryUrl(request.url, { allowLocalPaths: options.allowLocalPaths });
  const clone = await openRequested(request, locator, options);
  try {
    const { range, squash } = await resolveRange(request, clone, request.range ?? null, signal, emit);
    const rev = range?.after ?? clone.headCommit;
    const info = {
      // What results, reports and job views show: a token in the clone URL stays with the clone.
      url: redactUrl(request.url),
      repo: locator.repo,
      branch: clone.branch,
      headCommit: rev,
      range,
      shallow: clone.shallow,
      ...(squash ? { squash } : {}),
    };
    const kept = await options.answerFromCache?.(info);
    if (kept) {
      emit({ event: 'fetch', message: `unchanged since its kept result (${rev.slice(0, 12)})` });
      // The kept result answers; a clone that cannot be removed is no reason to fail it.
      await clone.dispose().catch(() => undefined);
      return { kind: 'cached', result: kept };
    }
    return await readRepository({ request, options, locator, clone, info });
  } catch (error) {
    // The error being thrown is what the job reports; a failed clean-up would hide it.
    await clone.dispose().catch(() => undefined);
    throw error;
  }
}

interface OpenedRepository {
  readonly request: Extract<AnalysisRequest, { kind: 'repository' }>;
  readonly options: AcquireOptions;
  readonly locator: ReturnType<typeof parseRepositoryUrl>;
  readonly clone: ClonedRepository;
  readonly info: PreparedRepository['info'];
}

/** The history, with the line pass and the files at the head read beside it, then what the repository says besides. */
async function readRepository(opened: OpenedRepository): Promise<PreparedRepository> {
  const { request, options, clone, info } = opened;
  const { signal, emit, config, excludeFiles } = options;
  const rev = info.headCommit;
  const range = info.range;
  const bounds = gitBoundsOf(config);
  // refs/notes/ai is read once for the commit level and the line counts, whichever asks first.
  const gitAiNotes = new SharedAuthorshipNotes(clone.dir);
  const wholeLines = startWholeLines(opened, gitAiNotes);
  // So are the files at the analysed head (one `git ls-tree`): reports point only at files that remain.
  const headPaths = readHeadPaths(clone.dir, rev, { signal, bounds });
  // Marked handled now: awaited below, where its failure is dealt with.
  headPaths.catch(() => undefined);
  const history = await readAnalysedHistory(opened, bounds, wholeLines);
  const { commits, unreadable } = history;
  const pathsAtHead = await headPaths;
  const beside = await readBesideHistory(commits, {
    dir: clone.dir,
    rev,
    notes: gitAiNotes,
    pathsAtHead: pathsAtHead ?? null,
    config,
    excludeFiles,
    bounds,
    signal,
    emit,
    logger: options.logger,
  });
  return {
    kind: 'repository',
    info,
    commits,
    stats: history.stats,
    aiNotes: beside.aiNotes,
    authorshipLogs: beside.authorshipLogs,
    ...(beside.requestCommits.size > 0 ? { requestCommits: beside.requestCommits } : {}),
    ...(range || request.since ? { partialHistory: true } : {}),
    ...(pathsAtHead ? { headPaths: pathsAtHead } : {}),
    ...(beside.assistantSetup.length > 0 ? { assistantSetup: beside.assistantSetup } : {}),
    ...unreadableAndOversized(history, bounds),
    diffExcerpt: (hash, maxBytes, excerptSignal) =>
      diffExcerpt(clone.dir, hash, { maxBytes, excludeFiles, signal: excerptSignal, bounds }),
    ...lineReaderOf({
      request,
      config,
      wholeLines,
      clone,
      rev,
      range,
      commits,
      excludeFiles,
      gitAiNotes,
      unreadableFiles: unreadable?.files,
      bounds,
      emit,
      logger: options.logger,
      ...(options.readers?.length ? { readers: options.readers } : {}),
    }),
    dispose: () => clone.dispose(),
  };
}

/** A whole history's lines are one more read of the same history: started now, beside it (none for a range or `--since`). */
function startWholeLines(opened: OpenedRepository, gitAiNotes: SharedAuthorshipNotes): WholeHistoryLines | null {
  const { request, options, locator, clone, info } = opened;
  const { config, excludeFiles, emit, signal } = options;
  if (info.range || request.since || request.lines === false || config.lines?.enabled === false) return null;
  return new WholeHistoryLines(clone, info.headCommit, {
    local: locator.kind === 'local',
    config,
    excludeFiles,
    isExcludedByConfig: excludeMatcher(excludeFiles),
    cache: request.cache !== false,
    gitAiNotes,
    onProgress: (message: string) => emit({ event: 'fetch', message }),
    ...(options.readers?.length ? { readers: options.readers } : {}),
    bounds: gitBoundsOf(config),
    signal,
  });
}

type AnalysedHistory = Awaited<ReturnType<typeof readHistory>>;

/** The analysed commits (the range's, those since `--since`, or the whole history), said and checked. */
/** The history read's niceness while the one line pass reads beside it (history.ts, `niceness`). */
const BESIDE_LINE_PASS_NICENESS = 10;

async function readAnalysedHistory(
  opened: OpenedRepository,
  bounds: GitBounds,
  besideLinePass: WholeHistoryLines | null,
): Promise<AnalysedHistory> {
  const { request, options, locator, clone, info } = opened;
  const { signal, emit, excludeFiles } = options;
  const range = info.range;
  const history = await readHistory(clone.dir, {
    rev: info.headCommit,
    bounds,
    // Its files from the pass's counts when the pass diffs every commit; else numstat's, at a lower
    // priority. A job with a deadline (the server's) reads numstat: its verdict never waits for the
    // pass, whose lines are dropped when the job's time runs short (pipeline/lines.ts).
    ...(besideLinePass
      ? {
          niceness: BESIDE_LINE_PASS_NICENESS,
          ...(options.job?.deadline === undefined ? { passFiles: besideLinePass.passFiles } : {}),
        }
      : {}),
    ...(clone.mirrored ? { cache: mirroredHistories } : {}),
    before: range?.before ?? null,
    since: request.since ? Math.floor(Date.parse(request.since) / 1000) : null,
    excludeFiles,
    signal,
    onProgress: readProgress(clone.dir, info.headCommit, emit, signal),
  });
  const { commits, unreadable, mailmapSkippedBytes } = history;
  if (commits.length === 0) {
    throw new CadenceError('ERR_NO_COMMITS_FOUND', {
      message: range
        ? `No commits in the pushed range of ${locator.repo}`
        : request.since
          ? `${locator.repo} has no commits since ${request.since}`
          : `${locator.repo} has no commits on the analyzed branch`,
    });
  }
  emit({ event: 'fetch', message: `read ${commits.length} ${commits.length === 1 ? 'commit' : 'commits'}` });
  reportReadProblems(
    { ...(unreadable ? { unreadable } : {}), ...(mailmapSkippedBytes !== undefined ? { mailmapSkippedBytes } : {}) },
    emit,
    options.logger,
  );
  return history;
}

/** What the source says of file versions the history read could not or would not read. */
function unreadableAndOversized(
  history: AnalysedHistory,
  bounds: GitBounds,
): Pick<PreparedRepository, 'unreadable' | 'oversizedFiles'> {
  const { unreadable, oversizedFiles, oversizedCommits } = history;
  return {
    ...(unreadable ? { unreadable: { commits: unreadable.commits.length, files: unreadable.files.slice(0, 20) } } : {}),
    ...(oversizedFiles > 0
      ? {
          oversizedFiles: {
            files: oversizedFiles,
            max_diff_blob_mb: bounds.maxDiffBlobBytes / (1024 * 1024),
            commits: [...oversizedCommits],
          },
        }
      : {}),
  };
}
