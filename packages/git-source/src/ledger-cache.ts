import { createHash } from 'node:crypto';
import { mkdir, open, readFile, rename, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import type { Ledger } from './history-ledger.js';
import type { ReworkedLines } from './rework.js';
import type { AddedLineReadings } from './added-lines.js';
import type { KeptCounts } from './pass-counts.js';

// 4: copies within a file lined up again at the head, piece by piece (kept passes of 3 judged them by weight).
// 5: the added lines' readings kept beside the ledger.
// 6: each commit's files as numstat counts them (the history read takes them instead of a numstat read).
const FORMAT = 6;

/** A whole history's one pass, kept for the next analysis of the same repository. */
export interface KeptLines {
  readonly ledger: Ledger;
  readonly rework: ReworkedLines;
  /** What the pass depended on at its head besides the history: the excluded files and the line records. */
  readonly context: string;
  /** What the strategies' readers returned per commit (by reader key, then commit). */
  readonly readings?: AddedLineReadings;
  /** Each commit's files as numstat counts them (pass-counts.ts). */
  readonly counts?: KeptCounts;
}

/**
 * Where a repository's kept one pass lives under `root` (`cache.repositories_dir`, else
 * `$XDG_CACHE_HOME/cadence`): named by a digest of its git directory, never inside the repository.
 * Which history it belongs to is its head: it is carried forward only to a head that descends from
 * it, and otherwise replaced.
 */
export function keptLinesFile(root: string, gitDir: string): string {
  const name = createHash('sha256').update(path.resolve(gitDir)).digest('hex').slice(0, 32);
  return path.join(root, 'lines', `${name}.json`);
}

/** The cache folder of the CLI when no `cache.repositories_dir` is set. */
export function defaultCacheRoot(env: NodeJS.ProcessEnv = process.env): string | null {
  if (env.XDG_CACHE_HOME && path.isAbsolute(env.XDG_CACHE_HOME)) return path.join(env.XDG_CACHE_HOME, 'cadence');
  if (env.HOME && path.isAbsolute(env.HOME)) return path.join(env.HOME, '.cache', 'cadence');
  return null;
}

/**
 * The kept one pass in `file` when it was made with the same `key` (the exclusions, the line
 * records and the attributes it ran with); null otherwise. A damaged file is an empty cache.
 */
export async function loadKeptLines(file: string, key: string): Promise<KeptLines | null> {
  try {
    const kept = JSON.parse(await readFile(file, 'utf8')) as {
      format: number;
      key: string;
      head: string;
      commits: string[];
      assistants: (string | null)[];
      movedLines: number;
      context: string;
      files: Record<string, number[]>;
      texts?: Record<string, number[]>;
      rework: { lines: Record<string, number>; marked: Record<string, number> };
      readings?: Record<string, Record<string, number>>;
      counts?: unknown;
    };
    if (kept.format !== FORMAT || kept.key !== key || typeof kept.head !== 'string' || !Array.isArray(kept.commits))
      return null;
    for (const values of Object.values(kept.files)) if (!Array.isArray(values)) return null;
    // A reading that is no number would reach a strategy as one: the file is damaged.
    for (const values of Object.values(kept.readings ?? {}))
      if (!Object.values(values).every((value) => typeof value === 'number' && Number.isFinite(value))) return null;
    const counts = keptCounts(kept.counts);
    return {
      ...(counts ? { counts } : {}),
      ledger: {
        head: kept.head,
        commits: kept.commits,
        assistants: kept.assistants,
        movedLines: kept.movedLines,
        files: new Map(Object.entries(kept.files)),
        texts: new Map(Object.entries(kept.texts ?? {})),
      },
      rework: {
        lines: new Map(Object.entries(kept.rework.lines)),
        marked: new Map(Object.entries(kept.rework.marked)),
      },
      context: typeof kept.context === 'string' ? kept.context : '',
      readings: new Map(
        Object.entries(kept.readings ?? {}).map(([reader, values]) => [reader, new Map(Object.entries(values))]),
      ),
    };
  } catch {
    return null;
  }
}

/**
 * Keeps a one pass in `file` (written whole to a temporary name, then renamed over it). The JSON is
 * written in pieces of about 64 KiB, each map and array member by member: the kept pass of a large
 * history is megabytes of text, and building it as one string (and one buffer to write it) came
 * at the analysis's memory peak.
 */
export async function saveKeptLines(file: string, key: string, kept: KeptLines): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  const temporary = `${file}.${process.pid}.tmp`;
  const handle = await open(temporary, 'w', 0o600);
  try {
    const json = new JsonPieces(handle);
    await json.write(
      `{${member('format', FORMAT)},${member('key', key)},${member('head', kept.ledger.head)},${member('assistants', kept.ledger.assistants)},${member('movedLines', kept.ledger.movedLines)},${member('context', kept.context)},"commits":`,
    );
    await json.array(kept.ledger.commits);
    await json.write(',"files":');
    await json.object(kept.ledger.files);
    await json.write(',"texts":');
    await json.object(kept.ledger.texts ?? new Map<string, readonly number[]>());
    await json.write(',"rework":{"lines":');
    await json.object(kept.rework.lines);
    await json.write(',"marked":');
    await json.object(kept.rework.marked);
    await json.write('},"readings":{');
    let first = true;
    for (const [reader, values] of kept.readings ?? new Map<string, ReadonlyMap<string, number>>()) {
      await json.write(`${first ? '' : ','}${JSON.stringify(reader)}:`);
      await json.object(values);
      first = false;
    }
    await json.write('}');
    if (kept.counts) await writeCounts(json, kept.counts);
    await json.write('}');
    await json.flush();
  } finally {
    await handle.close();
  }
  await rename(temporary, file);
}

/** The counts as JSON: the paths once each in `table`, each file by its path's index there. */
async function writeCounts(json: JsonPieces, counts: KeptCounts): Promise<void> {
  const index = new Map<string, number>();
  const files = counts.paths.map((path) => {
    let at = index.get(path);
    if (at === undefined) index.set(path, (at = index.size));
    return at;
  });
  await json.write(',"counts":{"hashes":');
  await json.array(counts.hashes);
  await json.write(',"starts":');
  await json.array(counts.starts);
  await json.write(',"table":');
  await json.array([...index.keys()]);
  await json.write(',"files":');
  await json.array(files);
  await json.write(',"lines":');
  await json.array(Array.from(counts.counts));
  await json.write('}');
}

/** Kept counts read back, or undefined when absent or damaged (then numstat counts). */
function keptCounts(value: unknown): KeptCounts | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { hashes, starts, table, files, lines } = value as Record<string, unknown>;
  const strings = (v: unknown): v is string[] => Array.isArray(v) && v.every((x) => typeof x === 'string');
  const integers = (v: unknown): v is number[] => Array.isArray(v) && v.every((x) => Number.isInteger(x));
  if (!strings(hashes) || !integers(starts) || !strings(table) || !integers(files) || !integers(lines))
    return undefined;
  if (hashes.length !== starts.length || lines.length !== 2 * files.length) return undefined;
  const paths: string[] = [];
  for (const at of files) {
    const path = table[at];
    if (path === undefined) return undefined;
    paths.push(path);
  }
  if (starts.some((start) => start > paths.length)) return undefined;
  return { hashes, starts, paths, counts: Int32Array.from(lines) };
}

const member = (name: string, value: unknown): string => `${JSON.stringify(name)}:${JSON.stringify(value)}`;

/** JSON text gathered into pieces of about PIECE_CHARS and written as each fills. */
class JsonPieces {
  private pending: string[] = [];
  private size = 0;

  constructor(private readonly handle: FileHandle) {}

  async write(text: string): Promise<void> {
    this.pending.push(text);
    this.size += text.length;
    if (this.size >= PIECE_CHARS) await this.flush();
  }

  /** An array, element by element. */
  async array(values: readonly unknown[]): Promise<void> {
    await this.write('[');
    for (let at = 0; at < values.length; at++) await this.write(`${at > 0 ? ',' : ''}${JSON.stringify(values[at])}`);
    await this.write(']');
  }

  /** A map as an object, member by member (as `Object.fromEntries` then JSON would write it). */
  async object(entries: ReadonlyMap<string, unknown>): Promise<void> {
    await this.write('{');
    let first = true;
    for (const [name, value] of entries) {
      await this.write(`${first ? '' : ','}${member(name, value)}`);
      first = false;
    }
    await this.write('}');
  }

  async flush(): Promise<void> {
    if (this.size === 0) return;
    const text = this.pending.join('');
    this.pending = [];
    this.size = 0;
    await this.handle.write(text);
  }
}

const PIECE_CHARS = 1 << 16;

/**
 * Whether a kept ledger at `keptHead` can be carried to a newer head, given the parents of the
 * commits since (`git rev-list --parents <head> ^<keptHead>`): each of them has parents, all of
 * them listed or `keptHead` itself, so the new head descends from the kept one and from nothing
 * older besides. A branch that forked before the kept head and was merged after it, or a history
 * that does not hold the kept head, needs a whole replay.
 */
export function carriesForward(keptHead: string, since: ReadonlyMap<string, readonly string[]>): boolean {
  for (const of of since.values()) {
    if (of.length === 0) return false;
    for (const parent of of) if (parent !== keptHead && !since.has(parent)) return false;
  }
  return true;
}
