import { CadenceError, itemAt } from '@cadence-detect/errors';
import { DEFAULT_GIT_BOUNDS, runBoundedGit, type GitBounds } from './git-process.js';
import { attributesOf, type PathAttributes } from './gitattributes.js';
import { BLOB_CAPS, readBlobCapped } from './blob-reader.js';
import type { Ledger } from './history-ledger.js';
import { omitted } from './history-log.js';
import { tallyFromLedger } from './ledger-lines.js';
import { unquoteGitPath } from './git-quoting.js';
import { isTraceFile, type LineRecords } from './line-records.js';
import { countNoDiffText, sortTreeFiles, tallyBlame } from './head-tally.js';
import type { BlameCache } from './blame-cache.js';

/**
 * Where each line of the tree at a commit comes from: `git blame -w -M` of every text file that is
 * counted (whitespace-only changes do not move a line to a new commit; lines moved within a file
 * keep their commit; no `-C`, so a line moved between files counts as its new file's commit's).
 */
export interface HeadLines {
  readonly head: string;
  /** Lines of the counted text files. */
  readonly counted: number;
  /** Lines of text files left out: `exclude_files`, linguist's vendored and generated files, `-diff`. */
  readonly excluded: number;
  readonly binaryFiles: number;
  readonly countedFiles: number;
  /** Counted lines by the commit that last wrote them, and by top-level folder ('.' for the top level's files). */
  readonly byCommit: ReadonlyMap<string, CommitLines>;
  /** The commits blame stopped at (a shallow clone's boundary): their lines lie outside the history read. */
  readonly boundary: ReadonlySet<string>;
  /** Whether a path is left out of the counts (the same rule `added` uses). */
  readonly isExcluded: (path: string) => boolean;
  /** Counted lines of files not blamed (`onlyPaths`): none of their commits is in the range, so all lie outside it; by folder too. */
  readonly unblamed: number;
  readonly unblamedFolders: ReadonlyMap<string, number>;
  /** Files blamed (those the one-pass ledger, when given, could not answer for). */
  readonly blamedFiles?: number;
}

export interface CommitLines {
  lines: number;
  readonly folders: Map<string, number>;
  /** Present when the commit has a line-level record: of `lines`, those it names as an assistant's (docs/lines.md). */
  marked?: MarkedLines;
}

export interface MarkedLines {
  lines: number;
  readonly folders: Map<string, number>;
  readonly byAssistant: Map<string, number>;
}

export interface HeadLinesOptions {
  /** `exclude_files`, plus linguist's defaults the configuration already lists (vendor/, node_modules/, minified files). */
  readonly isExcluded: (path: string) => boolean;
  /** Above this many counted files the tree is not blamed: ERR_LINES_SKIPPED says so. */
  readonly maxFiles: number;
  /** Blame processes at a time (two: the figure the benchmark compares with). */
  readonly concurrency?: number;
  readonly signal?: AbortSignal;
  /** Blame only these paths (the files a range's commits touched): the others' lines are counted as `unblamed`. */
  readonly onlyPaths?: ReadonlySet<string>;
  /** Line-level records (git-ai notes, Agent Trace): matched on blame's original line numbers. */
  readonly records?: LineRecords;
  /** The history's one-pass ledger (history-ledger.ts): the files it answers for are not blamed. */
  readonly ledger?: Ledger;
  /** A mirror's kept blames: an unchanged file is answered from it, a blamed one stored in it. */
  readonly cache?: BlameCache;
}

const EMPTY_TREE: Record<string, string> & { sha1: string } = {
  sha1: '4b825dc642cb6eb9a060e54bf8d69288fbee4904',
  sha256: '6ef19b41225c5369f1c104d45d8d85efa9b057b53b14b4b9b939dd74decc5321',
};

/** Thrown when the lines are not counted (too many files): the analysis goes on without them. */
export class LinesSkipped extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'LinesSkipped';
  }
}

/** The flags every blame of the line passes uses, and the blame cache's key carries. */
export const BLAME_FLAGS = ['-w', '-M'] as const;

async function git(
  dir: string,
  args: string[],
  signal?: AbortSignal,
  bounds: GitBounds = DEFAULT_GIT_BOUNDS,
): Promise<string> {
  // Within the history read's bounds (address space, pack windows, the blob cap): a blame is a git process like it.
  const result = await runBoundedGit(dir, args, bounds, signal);
  if (result.code !== 0)
    throw new CadenceError('ERR_GIT_READ_FAILED', {
      message: `git ${args[0]} failed: ${result.stderr.trim().split('\n')[0] ?? ''}`,
    });
  return result.stdout;
}

/**
 * The empty tree of the repository's object format: a full commit id says it by its length (40 hex
 * digits for SHA-1, 64 for SHA-256), which spares a git process; anything else is asked of git.
 */
async function emptyTreeFor(dir: string, head: string, signal?: AbortSignal): Promise<string> {
  if (/^[0-9a-f]{40}$/.test(head)) return EMPTY_TREE.sha1;
  if (/^[0-9a-f]{64}$/.test(head) && EMPTY_TREE.sha256) return EMPTY_TREE.sha256;
  const format = (await git(dir, ['rev-parse', '--show-object-format'], signal)).trim();
  return EMPTY_TREE[format] ?? EMPTY_TREE.sha1;
}

/** Every file of the tree at `head` with its line count (null: binary), from one `git diff --numstat` against the empty tree. */
async function treeLineCounts(
  dir: string,
  head: string,
  signal?: AbortSignal,
  omitPaths?: readonly string[],
  bounds?: GitBounds,
): Promise<Map<string, number | null>> {
  const empty = await emptyTreeFor(dir, head, signal);
  const out = await git(
    dir,
    [
      '-c',
      'core.quotePath=false',
      'diff',
      '--numstat',
      '-z',
      '--no-renames',
      '--no-ext-diff',
      '--no-textconv',
      empty,
      head,
      ...(omitPaths?.length ? ['--', ...omitted(omitPaths)] : []),
    ],
    signal,
    bounds,
  );
  const files = new Map<string, number | null>();
  for (const entry of out.split('\0')) {
    const match = /^(\d+|-)\t(\d+|-)\t(.+)$/s.exec(entry);
    if (match) files.set(itemAt(match, 3), match[1] === '-' ? null : Number(match[1]));
  }
  return files;
}

/** The symbolic links (mode 120000) and submodules (160000) of the tree at `commit`. */
async function treeLinks(dir: string, commit: string, signal?: AbortSignal): Promise<Set<string>> {
  const out = await git(dir, ['-c', 'core.quotePath=false', 'ls-tree', '-r', '-z', '--end-of-options', commit], signal);
  const links = new Set<string>();
  for (const entry of out.split('\0')) {
    const tab = entry.indexOf('\t');
    if (tab > 0 && (entry.startsWith('120000 ') || entry.startsWith('160000 '))) links.add(entry.slice(tab + 1));
  }
  return links;
}

/** The paths of the tree at `commit` (one `git ls-tree -r -z --name-only`). */
async function treePaths(dir: string, commit: string, signal?: AbortSignal): Promise<string[]> {
  return (
    await git(
      dir,
      ['-c', 'core.quotePath=false', 'ls-tree', '-r', '-z', '--name-only', '--end-of-options', commit],
      signal,
    )
  )
    .split('\0')
    .filter((p) => p.length > 0);
}

/** The `.gitattributes` files of the tree at `head`, by path. */
async function attributeFiles(
  dir: string,
  head: string,
  paths: Iterable<string>,
  signal?: AbortSignal,
): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  for (const path of paths) {
    if (path !== '.gitattributes' && !path.endsWith('/.gitattributes')) continue;
    const blob = await readBlobCapped(dir, `${head}:${path}`, BLOB_CAPS.attributes, signal);
    if (blob.kind === 'too-large')
      throw new LinesSkipped(
        `${path} is ${megabytes(blob.bytes)} MB, above the ${megabytes(BLOB_CAPS.attributes)} MB a .gitattributes file may be`,
      );
    if (blob.kind === 'text') files.set(path, blob.text);
  }
  return files;
}

const megabytes = (bytes: number): string => (bytes / (1024 * 1024)).toFixed(bytes < 1024 * 1024 ? 2 : 0);

const folderOf = (path: string): string => (path.includes('/') ? path.slice(0, path.indexOf('/')) : '.');

/** A run of lines blame traced to one commit: where they were in that commit's version of the file. */
export interface BlameGroup {
  readonly commit: string;
  /** The file's path in `commit` (blame follows renames). */
  readonly path: string;
  /** The first line's number in that version (1-based). */
  readonly line: number;
  readonly count: number;
}

export interface FileBlame {
  readonly groups: readonly BlameGroup[];
  /** The commits marked `boundary` (where a shallow history or `since` stops). */
  readonly boundary: ReadonlySet<string>;
}

/**
 * The blame of one file at `head`, from `git blame --incremental -w -M`: each group of lines with
 * the commit that wrote it and where the lines were in that commit (line records are matched on
 * those original numbers), and the commits marked `boundary`.
 */
export async function blameFile(
  dir: string,
  head: string,
  path: string,
  signal?: AbortSignal,
  ranges: readonly (readonly [number, number])[] = [],
  since?: number,
): Promise<FileBlame> {
  // `--since`: blame stops at commits older than that (their lines go to a boundary commit), so a
  // question about recent lines never walks the whole history.
  const args = [
    '-c',
    'core.quotePath=false',
    'blame',
    '--incremental',
    // A diff driver's textconv is a command: the repository's attributes must never choose one to run.
    '--no-textconv',
    '--root',
    ...BLAME_FLAGS,
    ...ranges.flatMap(([start, count]) => ['-L', `${start},+${count}`]),
    ...(since === undefined ? [] : [`--since=@${since}`]),
    head,
    '--',
    path,
  ];
  const out = await git(dir, args, signal);
  const groups: BlameGroup[] = [];
  const boundary = new Set<string>();
  let current: { commit: string; line: number; count: number } | null = null;
  for (const line of out.split('\n')) {
    const header = /^([0-9a-f]{40}|[0-9a-f]{64}) (\d+) \d+ (\d+)$/.exec(line);
    if (header) {
      current = { commit: itemAt(header, 1), line: Number(header[2]), count: Number(header[3]) };
    } else if (line === 'boundary' && current) {
      boundary.add(current.commit);
    } else if (line.startsWith('filename ') && current) {
      // Each group ends with its file name.
      groups.push({ ...current, path: unquoteGitPath(line.slice(9)) });
      current = null;
    }
  }
  return { groups, boundary };
}

/** Lines by commit, from a file's blame groups. */
export function linesByCommit(blame: FileBlame): Map<string, number> {
  const byCommit = new Map<string, number>();
  for (const group of blame.groups) byCommit.set(group.commit, (byCommit.get(group.commit) ?? 0) + group.count);
  return byCommit;
}

/** The tree at a commit as the line passes read it: each file's line count (null: binary), and what is left out. */
export interface LineTree {
  readonly head: string;
  readonly files: ReadonlyMap<string, number | null>;
  readonly attributes: (path: string) => PathAttributes;
  /** `exclude_files` and linguist's defaults, overridden by the tree's `.gitattributes`; `-diff` files. */
  readonly isExcluded: (path: string) => boolean;
}

/**
 * Reads the tree at `head` and its `.gitattributes`: what blame and the rework pass both need first.
 * `attributesFrom`: read the `.gitattributes` files of that commit instead (a range's base), so a
 * request cannot leave its own lines out by marking them generated.
 */
export async function readLineTree(
  dir: string,
  head: string,
  isExcludedByConfig: (path: string) => boolean,
  signal?: AbortSignal,
  attributesFrom?: string,
  /** Files some of whose versions the repository lacks (a partial clone): not counted (the result's `unreadable_files`). */
  omitPaths?: readonly string[],
  /** The blob cap (`limits.max_diff_blob_mb`): a file above it is binary, as the history read counts it. */
  bounds?: GitBounds,
): Promise<LineTree> {
  const [files, links] = await Promise.all([
    treeLineCounts(dir, head, signal, omitPaths, bounds),
    treeLinks(dir, head, signal),
  ]);
  // A symbolic link is no one-line text file: it counts no line (and no record can mark one).
  for (const link of links) files.delete(link);
  const attributes = attributesOf(
    attributesFrom === undefined
      ? await attributeFiles(dir, head, files.keys(), signal)
      : await attributeFiles(dir, attributesFrom, await treePaths(dir, attributesFrom, signal), signal),
  );
  const isExcluded = (path: string): boolean => {
    const of = attributes(path);
    if (of.noDiff || isTraceFile(path) || links.has(path)) return true;
    return of.linguist ?? isExcludedByConfig(path);
  };
  return { head, files, attributes, isExcluded };
}

/** Counts and blames the lines of the tree at `head` (a full commit id), read by `readLineTree` unless given. */
export async function readHeadLines(
  dir: string,
  head: string,
  options: HeadLinesOptions & { readonly tree?: LineTree },
): Promise<HeadLines> {
  const { files, attributes, isExcluded } =
    options.tree ?? (await readLineTree(dir, head, options.isExcluded, options.signal));
  const sorted = sortTreeFiles(files, attributes, isExcluded);
  const { counted } = sorted;
  const { excluded, binaryFiles } = await countNoDiffText(dir, head, sorted, options.signal);
  const byCommit = new Map<string, CommitLines>();
  const boundary = new Set<string>();
  let total = 0;
  let unblamed = 0;
  const unblamedFolders = new Map<string, number>();
  const records = options.records && options.records.byCommit.size > 0 ? options.records : null;
  const queue = counted.filter(([path, lines]) => {
    if (options.onlyPaths && !options.onlyPaths.has(path)) {
      unblamed += lines;
      unblamedFolders.set(folderOf(path), (unblamedFolders.get(folderOf(path)) ?? 0) + lines);
      return false;
    }
    // The one pass answered for the file: no blame.
    if (options.ledger && tallyFromLedger(options.ledger, path, lines, folderOf(path), byCommit, records)) {
      total += lines;
      return false;
    }
    return true;
  });
  if (queue.length > options.maxFiles) {
    throw new LinesSkipped(
      `the tree holds ${queue.length} counted text files to blame, more than limits.max_line_files (${options.maxFiles})`,
    );
  }
  const blamedFiles = queue.length;
  const worker = async (): Promise<void> => {
    for (let next = queue.shift(); next; next = queue.shift()) {
      const [path] = next;
      const cached = options.cache?.lookup(path);
      const blamed = cached ?? (await blameFile(dir, head, path, options.signal));
      if (!cached) options.cache?.store(path, blamed);
      total += tallyBlame(byCommit, blamed, folderOf(path), records);
      for (const commit of blamed.boundary) boundary.add(commit);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, options.concurrency ?? 2) }, () => worker()));
  return {
    head,
    counted: total + unblamed,
    excluded,
    binaryFiles,
    countedFiles: counted.length,
    byCommit,
    boundary,
    isExcluded,
    unblamed,
    unblamedFolders,
    blamedFiles,
  };
}
