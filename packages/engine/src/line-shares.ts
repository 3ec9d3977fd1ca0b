import {
  ERA_CHECK_BEFORE,
  ERA_CHECK_MIN_COMMITS,
  type CommitRecord,
  type LinesAtHead,
  type LinesEraCheck,
  type Survival,
  type SurvivalSide,
} from '@cadence-detect/plugin-sdk';
import type { AddedLineReadings } from '@cadence-detect/git-source';

/** Of a commit's lines, those its line-level record names as an assistant's (git-source's MarkedLines). */
interface MarkedReading {
  readonly lines: number;
  readonly folders: ReadonlyMap<string, number>;
  readonly byAssistant: ReadonlyMap<string, number>;
}

/** Line-level records (git-source's LineRecords, structurally): assistant ranges by commit and path. */
export interface RecordReadings {
  readonly byCommit: ReadonlyMap<
    string,
    ReadonlyMap<string, readonly { readonly start: number; readonly end: number }[]>
  >;
  readonly gitAi: number;
  readonly agentTrace: number;
  readonly skipped: readonly string[];
  readonly skippedCount: number;
}
import type { CommitWeight } from './repository-scoring.js';

/** What the git source found about lines: the blame of HEAD and the rework pass (git-source's HeadLines, structurally). */
export interface LineReadings {
  /** What the strategies' added-lines readers returned per commit (the whole history's one pass only). */
  readonly addedLineReadings?: AddedLineReadings;
  readonly head: {
    readonly head: string;
    readonly counted: number;
    readonly excluded: number;
    readonly binaryFiles: number;
    /** `marked`: present for a commit with a line-level record. */
    readonly byCommit: ReadonlyMap<
      string,
      { readonly lines: number; readonly folders: ReadonlyMap<string, number>; readonly marked?: MarkedReading }
    >;
    readonly boundary: ReadonlySet<string>;
    readonly isExcluded: (path: string) => boolean;
    /** Lines of files no analysed commit touched (not blamed): outside the range. */
    readonly unblamed?: number;
    readonly unblamedFolders?: ReadonlyMap<string, number>;
  };
  /** Reworked lines within 14 days, by the commit that wrote them. */
  readonly reworked: ReadonlyMap<string, number>;
  /** Of those, the lines the writer's record names as an assistant's. */
  readonly reworkedMarked?: ReadonlyMap<string, number>;
  readonly records?: RecordReadings;
}

/** What attribution calls an assistant it cannot name. */
const UNNAMED = 'unnamed assistant';

const MAX_DIRECTORIES = 20;
const MAX_AUTHORS = 20;

const two = (n: number): number => Math.round(n * 100) / 100;
const ratio = (part: number, whole: number): number | null =>
  whole > 0 ? Math.round((part / whole) * 10_000) / 10_000 : null;

/** A commit's assistant weight: 1 explicit, its probability when scored, 0 otherwise; null for automation. */
function assistantWeight(weight: CommitWeight | undefined): number | null {
  if (!weight) return 0;
  if (weight.explicit) return 1;
  if (weight.automation) return null;
  return weight.counts ? weight.confidence : 0;
}

interface Tally {
  counted: number;
  assistant: number;
  /** Automation and outside lines: out of the share's denominator. */
  apart: number;
}

interface AuthorTally {
  name: string;
  email: string;
  lines: number;
  assistant: number;
  automation: number;
}

interface LinesAtHeadOptions {
  /**
   * A range (a pull request, a push): the change can add the line records of its own commits (an
   * `.agent-trace` file), so a record is used only where it raises a commit's assistant lines above
   * what inference gives, never to lower them; it is still reported under `records`.
   */
  readonly recordsOnlyRaise?: boolean;
  /** The whole history was read: the lines get their false-alarm reading (`era_check`). */
  readonly eraCheck?: boolean;
}

type BlamedCommit = LineReadings['head']['byCommit'] extends ReadonlyMap<string, infer B> ? B : never;

/** The sums of linesAtHead, one blamed commit at a time. */
class HeadTally {
  explicit = 0;
  inferred = 0;
  automation = 0;
  outside: number;
  markedTotal = 0;
  readonly era = { commits: 0, lines: 0, inferred: 0 };
  readonly assistants: Record<string, number> = {};
  readonly folders = new Map<string, Tally>();
  readonly authors = new Map<string, AuthorTally>();

  constructor(
    head: LineReadings['head'],
    private readonly identity: (commit: CommitRecord) => string,
    private readonly options: LinesAtHeadOptions,
  ) {
    this.outside = head.unblamed ?? 0;
    for (const [folder, lines] of head.unblamedFolders ?? [])
      this.folders.set(folder, { counted: lines, assistant: 0, apart: lines });
  }

  add(
    commit: CommitRecord | undefined,
    isOutside: boolean,
    weight: CommitWeight | undefined,
    blamed: BlamedCommit,
  ): void {
    const w = isOutside ? null : assistantWeight(weight);
    // A line-level record names its commit's assistant lines exactly: the rest are the author's.
    const recorded = w === null ? undefined : blamed.marked;
    const inferredHere = weight?.explicit ? blamed.lines : (w ?? 0) * blamed.lines;
    const marked = recorded && this.options.recordsOnlyRaise && recorded.lines < inferredHere ? undefined : recorded;
    if (isOutside) this.outside += blamed.lines;
    else if (w === null) this.automation += blamed.lines;
    else if (marked) this.addMarked(marked, weight);
    else if (weight?.explicit) {
      this.explicit += blamed.lines;
      for (const name of weight.assistants) this.assistants[name] = (this.assistants[name] ?? 0) + blamed.lines;
    } else this.inferred += w * blamed.lines;
    if (commit && !isOutside && weight?.counts && !weight.explicit && commit.authorTime < ERA_BEFORE_SECONDS) {
      this.era.commits++;
      this.era.lines += blamed.lines;
      this.era.inferred += marked ? marked.lines : (w ?? 0) * blamed.lines;
    }
    const assistantIn = (lines: number, folder?: string): number =>
      marked ? (folder === undefined ? marked.lines : (marked.folders.get(folder) ?? 0)) : (w ?? 0) * lines;
    for (const [folder, lines] of blamed.folders) {
      const tally = this.folders.get(folder) ?? { counted: 0, assistant: 0, apart: 0 };
      tally.counted += lines;
      if (w === null) tally.apart += lines;
      else tally.assistant += assistantIn(lines, folder);
      this.folders.set(folder, tally);
    }
    if (commit && !isOutside) this.addAuthor(commit, blamed.lines, w === null ? null : assistantIn(blamed.lines));
  }

  private addMarked(marked: MarkedReading, weight: CommitWeight | undefined): void {
    this.explicit += marked.lines;
    this.markedTotal += marked.lines;
    // The commit's own assistant names where it has them, so one assistant is not counted under two
    // names; an attribution that names none ("unnamed assistant": a note cut before its metadata)
    // never hides the assistant the record itself names.
    const ownNames = weight?.explicit ? weight.assistants.filter((name) => name !== UNNAMED) : [];
    const named =
      ownNames.length > 0 ? ownNames.map((name): [string, number] => [name, marked.lines]) : marked.byAssistant;
    for (const [name, lines] of named) if (lines > 0) this.assistants[name] = (this.assistants[name] ?? 0) + lines;
  }

  /** `assistant`: the author's assistant lines here, or null for automation. */
  private addAuthor(commit: CommitRecord, lines: number, assistant: number | null): void {
    const key = this.identity(commit);
    const entry = this.authors.get(key) ?? {
      name: commit.authorName,
      email: commit.authorEmail,
      lines: 0,
      assistant: 0,
      automation: 0,
    };
    entry.lines += lines;
    if (assistant === null) entry.automation += lines;
    else entry.assistant += assistant;
    this.authors.set(key, entry);
  }
}

/**
 * The lines at HEAD by who wrote them (docs/lines.md): each line's commit, from blame, weighed as
 * the commit is in `ai_share` (explicit 1, inferred its probability), automation and lines from
 * outside the analysed range apart.
 */
export function linesAtHead(
  readings: LineReadings,
  commits: readonly CommitRecord[],
  weights: ReadonlyMap<string, CommitWeight>,
  identity: (commit: CommitRecord) => string = (c) => c.authorEmail.toLowerCase(),
  options: LinesAtHeadOptions = {},
): LinesAtHead {
  const { head } = readings;
  const byHash = new Map(commits.map((c) => [c.hash, c]));
  const tally = new HeadTally(head, identity, options);
  for (const [hash, blamed] of head.byCommit) {
    const commit = byHash.get(hash);
    tally.add(commit, !commit || head.boundary.has(hash) || commit.isBoundary, weights.get(hash), blamed);
  }
  const { explicit, automation, outside } = tally;
  const inferredRounded = two(tally.inferred);
  return {
    head: head.head,
    counted: head.counted,
    excluded: head.excluded,
    binary_files: head.binaryFiles,
    explicit,
    inferred: inferredRounded,
    automation,
    human: two(head.counted - explicit - inferredRounded - automation - outside),
    outside,
    share: ratio(explicit + tally.inferred, head.counted - automation - outside),
    assistants: tally.assistants,
    directories: [...tally.folders.entries()]
      .sort((a, b) => b[1].counted - a[1].counted || a[0].localeCompare(b[0]))
      .slice(0, MAX_DIRECTORIES)
      .map(([path, t]) => ({ path, counted: t.counted, share: ratio(t.assistant, t.counted - t.apart) })),
    authors: [...tally.authors.values()]
      .sort((a, b) => b.lines - a.lines || a.email.localeCompare(b.email))
      .slice(0, MAX_AUTHORS)
      .map((a) => ({
        name: a.name,
        email: a.email,
        lines: a.lines,
        share: ratio(a.assistant, a.lines - a.automation),
      })),
    ...recordsReading(readings, tally.markedTotal),
    ...(options.eraCheck ? { era_check: eraReading(tally.era) } : {}),
  };
}

/** What the line-level records named, when there were any. */
function recordsReading(readings: LineReadings, marked: number): Pick<LinesAtHead, 'records'> {
  const records = readings.records;
  if (!records || (records.byCommit.size === 0 && records.skippedCount === 0)) return {};
  return {
    records: {
      git_ai: records.gitAi,
      agent_trace: records.agentTrace,
      marked,
      skipped: records.skippedCount,
      skipped_reasons: [...records.skipped],
    },
  };
}

const ERA_BEFORE_SECONDS = Date.parse(`${ERA_CHECK_BEFORE}T00:00:00Z`) / 1000;

/** The lines' false-alarm reading: null below ERA_CHECK_MIN_COMMITS commits, as the verdict's. */
function eraReading(era: { commits: number; lines: number; inferred: number }): LinesEraCheck | null {
  if (era.commits < ERA_CHECK_MIN_COMMITS || era.lines === 0) return null;
  return {
    before: ERA_CHECK_BEFORE,
    commits: era.commits,
    lines: era.lines,
    inferred: two(era.inferred),
    share: ratio(era.inferred, era.lines) ?? 0,
  };
}

/** Lines a commit added in files the line counts keep (the whole count when its file list was cut). */
function addedLines(commit: CommitRecord, isExcluded: (path: string) => boolean): number {
  if (commit.filesTruncated) return commit.additions;
  return commit.files.reduce((sum, f) => (f.binary || f.excluded || isExcluded(f.path) ? sum : sum + f.additions), 0);
}

/** Assistant lines a commit's record names in the files the counts keep (each file at most what the commit added to it). */
function recordedAdded(
  commit: CommitRecord,
  recorded: ReadonlyMap<string, readonly { readonly start: number; readonly end: number }[]>,
  isExcluded: (path: string) => boolean,
): number {
  const named = (path: string): number => (recorded.get(path) ?? []).reduce((sum, r) => sum + r.end - r.start + 1, 0);
  if (commit.filesTruncated)
    return [...recorded.keys()].filter((path) => !isExcluded(path)).reduce((sum, path) => sum + named(path), 0);
  return commit.files.reduce(
    (sum, f) => (f.binary || f.excluded || isExcluded(f.path) ? sum : sum + Math.min(f.additions, named(f.path))),
    0,
  );
}

const monthOf = (seconds: number): string => new Date(seconds * 1000).toISOString().slice(0, 7);

const side = (): SurvivalSide => ({ added: 0, surviving: 0, reworked_14d: 0 });

function add(to: SurvivalSide, weight: number, lines: SurvivalSide): void {
  to.added += weight * lines.added;
  to.surviving += weight * lines.surviving;
  to.reworked_14d += weight * lines.reworked_14d;
}

const rounded = (s: SurvivalSide): SurvivalSide => ({
  added: two(s.added),
  surviving: two(s.surviving),
  reworked_14d: two(s.reworked_14d),
});

/** A commit with a line-level record: its named lines are the assistant's (the rest its author's); null without one. */
function recordedLines(readings: LineReadings, commit: CommitRecord, added: number): SurvivalSide | null {
  const recorded = readings.records?.byCommit.get(commit.hash);
  if (!recorded) return null;
  return {
    added: Math.min(added, recordedAdded(commit, recorded, readings.head.isExcluded)),
    surviving: readings.head.byCommit.get(commit.hash)?.marked?.lines ?? 0,
    reworked_14d: readings.reworkedMarked?.get(commit.hash) ?? 0,
  };
}

/**
 * How the analysed commits' lines lasted (docs/lines.md): added, still at HEAD, and reworked within
 * 14 days, assistant against human, each commit weighed by its assistant weight (automation and a
 * shallow clone's boundary commit left out).
 */
export function survivalOf(
  readings: LineReadings,
  commits: readonly CommitRecord[],
  weights: ReadonlyMap<string, CommitWeight>,
  /** As linesAtHead's: in a range, a record only raises a commit's assistant lines. */
  options: { readonly recordsOnlyRaise?: boolean } = {},
): Survival {
  const total = { assistant: side(), human: side() };
  const months = new Map<string, { assistant: SurvivalSide; human: SurvivalSide }>();
  for (const commit of commits) {
    if (commit.isBoundary || readings.head.boundary.has(commit.hash)) continue;
    const w = assistantWeight(weights.get(commit.hash));
    if (w === null) continue;
    const atHead = readings.head.byCommit.get(commit.hash);
    const lines = {
      added: addedLines(commit, readings.head.isExcluded),
      surviving: atHead?.lines ?? 0,
      reworked_14d: readings.reworked.get(commit.hash) ?? 0,
    };
    if (lines.added === 0 && lines.surviving === 0 && lines.reworked_14d === 0) continue;
    const month = monthOf(commit.authorTime);
    const byMonth = months.get(month) ?? { assistant: side(), human: side() };
    months.set(month, byMonth);
    const fromRecord = recordedLines(readings, commit, lines.added);
    const assistantLines =
      fromRecord && options.recordsOnlyRaise && fromRecord.added < w * lines.added ? null : fromRecord;
    for (const into of [total, byMonth]) {
      if (assistantLines) {
        add(into.assistant, 1, assistantLines);
        add(into.human, 1, {
          added: lines.added - assistantLines.added,
          surviving: lines.surviving - assistantLines.surviving,
          reworked_14d: lines.reworked_14d - assistantLines.reworked_14d,
        });
      } else {
        add(into.assistant, w, lines);
        add(into.human, 1 - w, lines);
      }
    }
  }
  return {
    assistant: rounded(total.assistant),
    human: rounded(total.human),
    months: [...months.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([month, { assistant, human }]) => ({
        month,
        assistant_added: two(assistant.added),
        assistant_surviving: two(assistant.surviving),
        assistant_reworked_14d: two(assistant.reworked_14d),
        human_added: two(human.added),
        human_surviving: two(human.surviving),
        human_reworked_14d: two(human.reworked_14d),
      })),
  };
}
