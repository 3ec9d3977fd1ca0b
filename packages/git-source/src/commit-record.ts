import { itemAt } from '@cadence-detect/errors';
import { ownString, stringInterner } from './own-string.js';
import type { CommitFileChange, CommitRecord } from '@cadence-detect/plugin-sdk';
import type { LogHeader, LogSink } from './log-stream.js';

export type MutableCommit = { -readonly [K in keyof CommitRecord]: CommitRecord[K] };

/** A commit as read, with what the reader knows about its dates before the history is complete. */
export interface ReadCommit {
  readonly record: MutableCommit;
  /** The author date was unusable: the record's authorTime is a stand-in, not a measurement. */
  readonly authorTimeUnknown: boolean;
  /** Neither date was usable: the record's times are placeholders until the history fills them. */
  readonly timeUnknown: boolean;
  /** Files counted as binary because a side is larger than the diff blob cap (set after the log is read). */
  oversizedFiles: number;
}

/**
 * Caps on what is kept per commit. A repository can hold megabyte subjects and identities; every
 * job view, report and AI prompt carries these strings, so they are cut where they are read.
 */
export const LIMITS = {
  files: 20,
  bodyChars: 2000,
  subjectChars: 500,
  identityChars: 200,
  pathChars: 500,
} as const;

/**
 * 9999-12-31T23:59:59Z. Git accepts any 64-bit time; past this one a date has no four-digit year,
 * and past year 275760 JavaScript cannot represent it at all (`toISOString` throws).
 */
export const LATEST_TIME = 253402300799;

const ELLIPSIS = '…';

/** `value` cut to at most `max` characters, the last one an ellipsis; never splits a surrogate pair. */
export function capped(value: string, max: number): string {
  if (value.length <= max) return value;
  return `${headOf(value, max - ELLIPSIS.length)}${ELLIPSIS}`;
}

function headOf(value: string, length: number): string {
  const end = isHighSurrogate(value.charCodeAt(length - 1)) ? length - 1 : length;
  return value.slice(0, end);
}

function tailOf(value: string, length: number): string {
  const start = value.length - length;
  return value.slice(isLowSurrogate(value.charCodeAt(start)) ? start + 1 : start);
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/** Long bodies keep their start and their end: trailers (Co-authored-by, Signed-off-by) sit at the end. */
export function boundedBody(body: string): string {
  if (body.length <= LIMITS.bodyChars) return body;
  const gap = `\n${ELLIPSIS}\n`;
  const head = Math.floor((LIMITS.bodyChars - gap.length) / 2);
  return `${headOf(body, head)}${gap}${tailOf(body, LIMITS.bodyChars - gap.length - head)}`;
}

/** Unix seconds from git, or null when outside 1970..9999 (git prints what the commit says). */
export function saneTime(raw: string): number | null {
  if (!/^\d{1,16}$/.test(raw)) return null;
  const seconds = Number(raw);
  return seconds <= LATEST_TIME ? seconds : null;
}

/**
 * Builds compact records from the log parser's events: counts every file, keeps a bounded few,
 * and hands each finished commit to `done`.
 */
export function commitRecordSink(
  isExcluded: (path: string) => boolean,
  boundary: ReadonlySet<string>,
  done: (commit: ReadCommit) => void,
): LogSink {
  let current: ReadCommit | null = null;
  const trees = importedTreeTracker();
  // Records keep copies, never views into the log's text (own-string.ts): the text of the whole
  // history would otherwise stay alive through them.
  const intern = stringInterner();
  return {
    commit(header) {
      current = fromHeader(header, boundary, intern);
      trees.reset();
    },
    file(added, deleted, path) {
      if (!current) return;
      const [additions, deletions] = [numstatCount(added), numstatCount(deleted)];
      addFile(current.record, additions, deletions, intern(path), isExcluded);
      trees.add(additions, deletions, path, isExcluded);
    },
    end() {
      if (current) {
        current.record.importedTree = trees.result();
        done(current);
      }
      current = null;
    },
  };
}

/** A numstat count as a number: -1 for `-` (a binary file). */
function numstatCount(text: string): number {
  return text === '-' ? -1 : Number(text) || 0;
}

/**
 * A commit read without its files (the log printed no numstat), given them afterwards: counts as
 * the one line pass took them from its diffs (pass-counts.ts), flat: path, added, deleted, ... with
 * -1 for a binary file. The same record as the numstat read makes. Returns the binary files' paths.
 */
export function addCountedFiles(
  commit: ReadCommit,
  counts: readonly (string | number)[],
  isExcluded: (path: string) => boolean,
  intern: (text: string) => string,
): string[] {
  const trees = importedTreeTracker();
  const binaries: string[] = [];
  for (let k = 0; k + 2 < counts.length; k += 3) {
    const path = intern(String(counts[k]));
    const [added, deleted] = [Number(counts[k + 1]), Number(counts[k + 2])];
    addFile(commit.record, added, deleted, path, isExcluded);
    trees.add(added, deleted, path, isExcluded);
    if (added < 0) binaries.push(path);
  }
  commit.record.importedTree = trees.result();
  return binaries;
}

/**
 * A file that marks the root of someone else's project: a licence. A readme or a package manifest
 * alone does not: new modules of one's own have those too (and assistants add them eagerly).
 */
const PROJECT_ROOT_FILE = /^(?:licen[cs]e|copying|notice|unlicense)(?:[._-][^/]*)?$/i;
/** Below this many lines a folder with its own readme is a new module, not an imported project. */
const IMPORTED_TREE_MIN_LINES = 100;

/**
 * Finds the folder a commit adds as a whole project (it brings its own licence):
 * a vendored or copied library. Additions are summed per ancestor folder while the commit's files
 * stream by; only the commit being read is held.
 */
function importedTreeTracker() {
  const roots = new Set<string>();
  const additionsUnder = new Map<string, number>();
  return {
    reset(): void {
      roots.clear();
      additionsUnder.clear();
    },
    add(added: number, deleted: number, path: string, isExcluded: (path: string) => boolean): void {
      const additions = Math.max(0, added);
      if (isExcluded(path)) return;
      const parts = path.split('/');
      if (
        parts.length > 1 &&
        additions > 0 &&
        deleted === 0 &&
        PROJECT_ROOT_FILE.test(itemAt(parts, parts.length - 1))
      ) {
        roots.add(parts.slice(0, -1).join('/'));
      }
      let folder = '';
      for (let i = 0; i < parts.length - 1 && i < 8; i++) {
        folder = i === 0 ? itemAt(parts, 0) : `${folder}/${parts[i]}`;
        additionsUnder.set(folder, (additionsUnder.get(folder) ?? 0) + additions);
      }
    },
    result(): { path: string; additions: number } | null {
      let best: { path: string; additions: number } | null = null;
      for (const root of roots) {
        const additions = additionsUnder.get(root) ?? 0;
        if (additions >= IMPORTED_TREE_MIN_LINES && (!best || additions > best.additions))
          best = { path: capped(root, LIMITS.pathChars), additions };
      }
      return best;
    },
  };
}

function fromHeader(header: LogHeader, boundary: ReadonlySet<string>, intern: (text: string) => string): ReadCommit {
  const [
    logHash,
    parentList,
    authorName,
    authorEmail,
    authorTime,
    committerName,
    committerEmail,
    committerTime,
    ,
    ,
    ,
    ,
    message,
  ] = header;
  const newline = message.indexOf('\n');
  const hash = ownString(logHash);
  const parents = parentList ? parentList.split(' ').map(ownString) : [];
  const author = saneTime(authorTime);
  const committer = saneTime(committerTime);
  const record: MutableCommit = {
    hash,
    // Lengthened where the history makes it ambiguous (abbreviations.ts, once the whole history is read).
    shortHash: hash.slice(0, 7),
    parents,
    authorName: intern(capped(authorName, LIMITS.identityChars)),
    authorEmail: intern(capped(authorEmail, LIMITS.identityChars)),
    // An unusable author date stands in as the committer date: close to it in nearly every history.
    authorTime: author ?? committer ?? 0,
    committerName: intern(capped(committerName, LIMITS.identityChars)),
    committerEmail: intern(capped(committerEmail, LIMITS.identityChars)),
    committerTime: committer ?? author ?? 0,
    subject: ownString(capped((newline < 0 ? message : message.slice(0, newline)).trim(), LIMITS.subjectChars)),
    body: ownString(boundedBody(newline < 0 ? '' : message.slice(newline + 1).trim())),
    additions: 0,
    deletions: 0,
    excludedAdditions: 0,
    excludedDeletions: 0,
    filesChanged: 0,
    files: [],
    filesTruncated: false,
    isMerge: parents.length > 1,
    isBoundary: boundary.has(hash),
    previousAuthorTime: null,
    importedTree: null,
    ...writtenAs(header, intern),
  };
  return {
    record,
    authorTimeUnknown: author === null,
    timeUnknown: author === null && committer === null,
    oversizedFiles: 0,
  };
}

/** The identities as the commit wrote them, when a mailmap changed them: `{ writtenAs }`, else nothing. */
function writtenAs(header: LogHeader, intern: (text: string) => string): Pick<MutableCommit, 'writtenAs'> {
  const [, , authorName, authorEmail, , committerName, committerEmail, , ...written] = header;
  const [writtenAuthorName, writtenAuthorEmail, writtenCommitterName, writtenCommitterEmail] = written;
  const remapped =
    writtenAuthorName !== authorName ||
    writtenAuthorEmail !== authorEmail ||
    writtenCommitterName !== committerName ||
    writtenCommitterEmail !== committerEmail;
  if (!remapped) return {};
  const identity = (text: string | undefined): string => intern(capped(text ?? '', LIMITS.identityChars));
  return {
    writtenAs: {
      authorName: identity(writtenAuthorName),
      authorEmail: identity(writtenAuthorEmail),
      committerName: identity(writtenCommitterName),
      committerEmail: identity(writtenCommitterEmail),
    },
  };
}

function addFile(
  commit: MutableCommit,
  added: number,
  deleted: number,
  path: string,
  isExcluded: (path: string) => boolean,
): void {
  // numstat prints `-` for binary files (-1 here).
  const binary = added < 0 || deleted < 0;
  const additions = binary ? 0 : added;
  const deletions = binary ? 0 : deleted;
  const excluded = isExcluded(path);
  commit.filesChanged++;
  if (excluded) {
    commit.excludedAdditions += additions;
    commit.excludedDeletions += deletions;
  } else {
    commit.additions += additions;
    commit.deletions += deletions;
  }
  const files = commit.files as CommitFileChange[];
  if (files.length < LIMITS.files)
    files.push({ path: capped(path, LIMITS.pathChars), additions, deletions, binary, excluded });
  else commit.filesTruncated = true;
}
