import { parseAuthorshipLog, type AuthorshipLog } from '@cadence-detect/plugin-sdk';
import { AI_NOTES_REF, NOTE_LIMITS, streamNotes } from './notes.js';

/**
 * The Git AI authorship logs (refs/notes/ai) of a set of commits, from one read that serves both
 * levels: the commit-level attribution (plugins' `aiNotes` and `authorshipLogs`) and the line counts.
 */
export interface AuthorshipNotes {
  /** Each note cut at NOTE_LIMITS.noteChars: what plugins see as `aiNotes`. */
  readonly excerpts: ReadonlyMap<string, string>;
  /** Each whole note parsed, or why it is not a log (one above NOTE_LIMITS.wholeNoteChars among them). */
  readonly logs: ReadonlyMap<string, AuthorshipLog | string>;
  /** Note blobs read. */
  readonly blobsRead: number;
}

export const NO_AUTHORSHIP_NOTES: AuthorshipNotes = { excerpts: new Map(), logs: new Map(), blobsRead: 0 };

/** Reads the notes of `only`, each parsed as it streams and then dropped, so one whole note is held at a time. */
export async function readAuthorshipNotes(
  dir: string,
  only: ReadonlySet<string>,
  signal?: AbortSignal,
): Promise<AuthorshipNotes> {
  const excerpts = new Map<string, string>();
  const logs = new Map<string, AuthorshipLog | string>();
  const limit = NOTE_LIMITS.wholeNoteChars;
  const blobsRead = await streamNotes(dir, AI_NOTES_REF, { maxChars: limit, signal, only }, (commit, text) => {
    excerpts.set(commit, text.slice(0, NOTE_LIMITS.noteChars));
    logs.set(commit, text.length >= limit ? `larger than ${limit / (1024 * 1024)} MiB` : parseAuthorshipLog(text));
  });
  return { excerpts, logs, blobsRead };
}

/** The part of `notes` that belongs to `commits`. */
function restricted(notes: AuthorshipNotes, commits: ReadonlySet<string>): AuthorshipNotes {
  const keep = <T>(map: ReadonlyMap<string, T>): Map<string, T> =>
    new Map([...map].filter(([commit]) => commits.has(commit)));
  return { excerpts: keep(notes.excerpts), logs: keep(notes.logs), blobsRead: notes.blobsRead };
}

/**
 * One repository's notes read once per analysis: the line pass (started beside the history read, over
 * the whole history) and the commit-level read (once the analysed commits are known) share the first
 * read that covers what each asks for.
 */
export class SharedAuthorshipNotes {
  private readonly reads: { commits: ReadonlySet<string>; notes: Promise<AuthorshipNotes> }[] = [];
  /** Reads of the repository's notes made (for tests: one per analysis). */
  readsMade = 0;

  constructor(private readonly dir: string) {}

  read(commits: ReadonlySet<string>, signal?: AbortSignal): Promise<AuthorshipNotes> {
    const covering = this.reads.find(({ commits: read }) => [...commits].every((commit) => read.has(commit)));
    if (covering) return covering.notes.then((notes) => restricted(notes, commits));
    this.readsMade++;
    const notes = readAuthorshipNotes(this.dir, commits, signal);
    this.reads.push({ commits, notes });
    return notes;
  }
}
