import { itemAt } from '@cadence-detect/errors';
import { assistantOfTool, AUTHORSHIP_MAX_LINE, isFullCommitId } from '@cadence-detect/plugin-sdk';
import { BLOB_CAPS, readBlobCapped } from './blob-reader.js';
import { NOTE_LIMITS, readNotes } from './notes.js';
import { readAuthorshipNotes, type SharedAuthorshipNotes } from './authorship-notes.js';

/** Where Agent Trace records live as notes (one record, or JSON lines, per commit). */
export const AGENT_TRACE_NOTES_REF = 'refs/notes/agent-trace';
/** Where Agent Trace records live in the tree: `.agent-trace/*.jsonl`, one record per line. */
export const AGENT_TRACE_FOLDER = '.agent-trace/';

/** Lines of one file, as of one commit, that a record names as an assistant's (1-based, inclusive). */
export interface MarkedRange {
  readonly start: number;
  readonly end: number;
  /** The assistant the record names (git-ai's `agent_id.tool`, Agent Trace's `tool.name`); null when it names none. */
  readonly assistant: string | null;
}

/**
 * Line-level authorship records (docs/lines.md): for each commit that has one, the lines of its
 * files (numbered as in that commit) that an assistant wrote. A commit listed here has every other
 * line of it counted as its author's, whatever its commit-level verdict.
 */
export interface LineRecords {
  readonly byCommit: ReadonlyMap<string, ReadonlyMap<string, readonly MarkedRange[]>>;
  /** Commits with a readable Git AI Standard v3 authorship log. */
  readonly gitAi: number;
  /** Agent Trace records read (from the tree and from notes). */
  readonly agentTrace: number;
  /** Records skipped as malformed or unusable, one line each (at most MAX_SKIPPED kept), and how many. */
  readonly skipped: readonly string[];
  readonly skippedCount: number;
}

export const NO_LINE_RECORDS: LineRecords = {
  byCommit: new Map(),
  gitAi: 0,
  agentTrace: 0,
  skipped: [],
  skippedCount: 0,
};

const MAX_SKIPPED = 20;

/** Assistant lines of `path` (as of `commit`) among `start`…`start + count - 1`, by assistant; null when the commit has no record. */
export function markedLines(
  records: LineRecords,
  commit: string,
  path: string,
  start: number,
  count: number,
): { lines: number; byAssistant: Map<string, number> } | null {
  const files = records.byCommit.get(commit);
  if (!files) return null;
  const byAssistant = new Map<string, number>();
  let lines = 0;
  const end = start + count - 1;
  const ranges = files.get(path) ?? [];
  // Disjoint and sorted (`disjoint`), so ends rise too: the first range that can overlap is found
  // by halving, and the walk stops at the first one past `end`. A file with many single-line
  // ranges costs each blame group a few steps, not a pass over every range.
  for (let index = firstEndingAtOrAfter(ranges, start); index < ranges.length; index++) {
    const range = itemAt(ranges, index);
    if (range.start > end) break;
    const overlap = Math.min(end, range.end) - Math.max(start, range.start) + 1;
    if (overlap <= 0) continue;
    lines += overlap;
    const name = range.assistant ?? UNNAMED_ASSISTANT;
    byAssistant.set(name, (byAssistant.get(name) ?? 0) + overlap);
  }
  return { lines, byAssistant };
}

/** The index of the first of `ranges` (sorted, disjoint) whose end is at or after `line`. */
function firstEndingAtOrAfter(ranges: readonly MarkedRange[], line: number): number {
  let low = 0;
  let high = ranges.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (itemAt(ranges, middle).end < line) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** Assistant lines a commit's record names in `path` (what it added, as the record counts it). */
export function recordedLines(records: LineRecords, commit: string, path: string): number {
  return (records.byCommit.get(commit)?.get(path) ?? []).reduce((sum, r) => sum + r.end - r.start + 1, 0);
}

export const UNNAMED_ASSISTANT = 'unnamed assistant';

class RecordBuilder {
  readonly byCommit = new Map<string, Map<string, MarkedRange[]>>();
  gitAi = 0;
  agentTrace = 0;
  readonly skipped: string[] = [];
  skippedCount = 0;

  skip(reason: string): void {
    this.skippedCount++;
    if (this.skipped.length < MAX_SKIPPED) this.skipped.push(reason);
  }

  /** Marks `ranges` of `path` in `commit`; a commit with only human ranges is still recorded. */
  add(commit: string, path: string | null, ranges: readonly MarkedRange[]): void {
    const files = this.byCommit.get(commit) ?? new Map<string, MarkedRange[]>();
    this.byCommit.set(commit, files);
    if (path === null || ranges.length === 0) return;
    // Named as the commit-level attribution names them, so one assistant is never listed twice.
    const named = ranges.map((r) => (r.assistant === null ? r : { ...r, assistant: assistantOfTool(r.assistant) }));
    files.set(path, [...(files.get(path) ?? []), ...named]);
  }

  build(): LineRecords {
    for (const files of this.byCommit.values()) for (const [path, ranges] of files) files.set(path, disjoint(ranges));
    return {
      byCommit: this.byCommit,
      gitAi: this.gitAi,
      agentTrace: this.agentTrace,
      skipped: this.skipped,
      skippedCount: this.skippedCount,
    };
  }
}

/** Sorted, without overlaps (two records naming one line count it once, for the first assistant named). */
function disjoint(ranges: readonly MarkedRange[]): MarkedRange[] {
  const sorted = [...ranges].sort((a, b) => a.start - b.start || a.end - b.end);
  const out: MarkedRange[] = [];
  for (const range of sorted) {
    const last = out.at(-1);
    if (last && range.start <= last.end) {
      if (range.end > last.end) out.push({ start: last.end + 1, end: range.end, assistant: range.assistant });
    } else out.push(range);
  }
  return out;
}

const short = (commit: string): string => commit.slice(0, 12);

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

const toolName = (value: unknown): string | null =>
  typeof value === 'string' && value.trim().length > 0 ? value.trim().slice(0, 60) : null;

export interface TraceMarks {
  /** The commit the ranges' line numbers refer to (`vcs.revision`). */
  readonly revision: string | null;
  readonly byPath: Map<string, MarkedRange[]>;
}

const CONTRIBUTOR_TYPES = new Set(['ai', 'mixed', 'human', 'unknown']);

/**
 * One Agent Trace record (version 0.x): `files[].conversations[].ranges[]` with `start_line` and
 * `end_line` (1-based, inclusive) and a `contributor.type` on the conversation or the range. `ai`
 * and `mixed` ranges are an assistant's (named by `tool.name`, else the contributor's `model_id`);
 * `human` and `unknown` ranges mark nothing. Returns the marks or why the record is skipped.
 */
export function parseTraceRecord(value: unknown): TraceMarks | string {
  if (!isObject(value)) return 'not a JSON object';
  if (typeof value.version !== 'string' || !/^0\.\d+(\.\d+)?$/.test(value.version))
    return `version ${JSON.stringify(value.version ?? null)} is not 0.x`;
  if (!Array.isArray(value.files)) return 'no files array';
  const vcs = value.vcs;
  let revision: string | null = null;
  if (vcs !== undefined) {
    if (!isObject(vcs) || typeof vcs.revision !== 'string') return 'vcs has no revision';
    if (vcs.type === 'git') revision = vcs.revision.toLowerCase();
  }
  const tool = isObject(value.tool) ? toolName(value.tool.name) : null;
  const byPath = new Map<string, MarkedRange[]>();
  for (const file of value.files) {
    const problem = readTraceFile(file, tool, byPath);
    if (problem) return problem;
  }
  return { revision, byPath };
}

/** One `files[]` entry of a trace record: its assistant ranges into `byPath`; why it is malformed, or null. */
function readTraceFile(file: unknown, tool: string | null, byPath: Map<string, MarkedRange[]>): string | null {
  if (!isObject(file) || typeof file.path !== 'string' || file.path.length === 0 || !Array.isArray(file.conversations))
    return 'a file without a path or conversations';
  const path = file.path.replace(/^\.\//, '');
  for (const conversation of file.conversations) {
    if (!isObject(conversation) || !Array.isArray(conversation.ranges))
      return `a conversation of ${file.path} without ranges`;
    for (const range of conversation.ranges) {
      const marked = traceRange(range, conversation, file.path, tool);
      if (typeof marked === 'string') return marked;
      if (marked) byPath.set(path, [...(byPath.get(path) ?? []), marked]);
    }
  }
  return null;
}

/** One range of a conversation: the assistant's lines it marks, null when it marks none (human, unknown), or why it is malformed. */
function traceRange(
  range: unknown,
  conversation: Record<string, unknown>,
  file: string,
  tool: string | null,
): MarkedRange | null | string {
  if (!isObject(range)) return `a range of ${file} is not an object`;
  const contributor = isObject(range.contributor)
    ? range.contributor
    : isObject(conversation.contributor)
      ? conversation.contributor
      : null;
  const type = contributor?.type;
  if (contributor !== null && (typeof type !== 'string' || !CONTRIBUTOR_TYPES.has(type)))
    return `contributor.type ${JSON.stringify(type ?? null)} is not ai, mixed, human or unknown`;
  const { start_line: start, end_line: end } = range;
  if (
    typeof start !== 'number' ||
    typeof end !== 'number' ||
    !Number.isInteger(start) ||
    !Number.isInteger(end) ||
    start < 1 ||
    end < start ||
    end > AUTHORSHIP_MAX_LINE
  )
    return `a range of ${file} has no valid start_line and end_line`;
  if (type !== 'ai' && type !== 'mixed') return null;
  return { start, end, assistant: tool ?? toolName(contributor?.model_id) };
}

export interface LineRecordOptions {
  /** The commits the records may name (the history read): records of other commits are not kept. */
  readonly commits: ReadonlySet<string>;
  /** The tree's `.agent-trace/*.jsonl` files (paths at `head`). */
  readonly traceFiles: readonly string[];
  /** The analysis's one read of refs/notes/ai, when it shares one; else the notes are read here. */
  readonly gitAiNotes?: SharedAuthorshipNotes;
  readonly signal?: AbortSignal;
}

/**
 * Reads the line-level records of a repository: Git AI Standard v3 authorship logs under
 * refs/notes/ai (read whole), Agent Trace records under refs/notes/agent-trace and in the tree's
 * `.agent-trace/*.jsonl` at `head`. A malformed record is skipped with its reason, never an error.
 */
export async function readLineRecords(dir: string, head: string, options: LineRecordOptions): Promise<LineRecords> {
  const builder = new RecordBuilder();
  const [notes, traceNotes] = await Promise.all([
    options.gitAiNotes
      ? options.gitAiNotes.read(options.commits, options.signal)
      : readAuthorshipNotes(dir, options.commits, options.signal),
    readNotes(dir, AGENT_TRACE_NOTES_REF, options.signal, NOTE_LIMITS.wholeNoteChars, options.commits),
  ]);
  for (const [commit, parsed] of notes.logs) {
    if (!options.commits.has(commit)) continue;
    if (typeof parsed === 'string') {
      builder.skip(`refs/notes/ai on ${short(commit)}: ${parsed}`);
      continue;
    }
    builder.gitAi++;
    builder.add(commit, null, []);
    for (const [path, ranges] of parsed.byPath) builder.add(commit, path, ranges);
  }
  const addTrace = (where: string, value: unknown, noteCommit: string | null): void => {
    const parsed = parseTraceRecord(value);
    if (typeof parsed === 'string') {
      builder.skip(`${where}: ${parsed}`);
      return;
    }
    // A note belongs to its commit; a record in the tree names its commit in vcs.revision.
    const commit = noteCommit ?? parsed.revision;
    if (commit === null || !isFullCommitId(commit)) {
      builder.skip(`${where}: no git vcs.revision naming a full commit`);
      return;
    }
    if (!options.commits.has(commit)) return;
    builder.agentTrace++;
    builder.add(commit, null, []);
    for (const [path, ranges] of parsed.byPath) builder.add(commit, path, ranges);
  };
  for (const [commit, text] of traceNotes) {
    if (!options.commits.has(commit)) continue;
    jsonLines(text).forEach((entry, index) =>
      addTrace(`refs/notes/agent-trace on ${short(commit)}, record ${index + 1}`, entry, commit),
    );
  }
  for (const path of options.traceFiles) {
    const blob = await readBlobCapped(dir, `${head}:${path}`, BLOB_CAPS.traceFile, options.signal);
    if (blob.kind === 'too-large') {
      builder.skip(
        `${path}: ${Math.round(blob.bytes / (1024 * 1024))} MB, above the ${BLOB_CAPS.traceFile / (1024 * 1024)} MB an Agent Trace file may be`,
      );
      continue;
    }
    if (blob.kind !== 'text') {
      builder.skip(`${path}: could not be read`);
      continue;
    }
    jsonLines(blob.text).forEach((entry, index) => addTrace(`${path}, line ${index + 1}`, entry, null));
  }
  return builder.build();
}

/** A note or file of JSON records: one JSON document, or one per line. A line that is not JSON is kept as its reason. */
function jsonLines(text: string): unknown[] {
  const trimmed = text.trim();
  if (trimmed.length === 0) return [];
  try {
    return [JSON.parse(trimmed)];
  } catch {
    // One record per line (JSON Lines).
  }
  return trimmed
    .split('\n')
    .filter((line) => line.trim().length > 0)
    .map((line) => {
      try {
        return JSON.parse(line) as unknown;
      } catch {
        return 'not JSON';
      }
    });
}

/** Whether a path holds Agent Trace records (they are records, not code: never counted). */
export const isTraceFile = (path: string): boolean => path.startsWith(AGENT_TRACE_FOLDER) && path.endsWith('.jsonl');
