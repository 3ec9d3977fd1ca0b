import { isFullCommitId } from '@cadence-detect/plugin-sdk';

/**
 * The parser of `git log -z --numstat --format=<LOG_FORMAT>`.
 *
 * Framing with bytes that commit data can hold lets a crafted message or author name forge, hide or
 * drop records. NUL cannot appear in any pretty-format field (git cuts a message at a NUL, and a NUL
 * in a commit is an fsck error), so every token here is exactly one field, one numstat entry or
 * one path, and its meaning follows from its position alone:
 *
 *   <hash> NUL <parents> NUL <aN> NUL <aE> NUL <at> NUL <cN> NUL <cE> NUL <ct> NUL <an> NUL <ae> NUL <cn> NUL <ce> NUL <message> NUL
 *   (names and e-mails after .mailmap, then as the commit writes them: who made a commit is decided on those)
 *   ["\n"]<added>\t<deleted>\t<path> NUL ...            one per file; the first starts with "\n"
 *   <added>\t<deleted>\t NUL <old path> NUL <new path> NUL   a rename: the paths follow on their own
 *
 * and the next commit's hash follows the last file with no separator. A hash has no tab, a numstat
 * entry always has two, and paths are consumed by position, so a path that looks like a hash is
 * still read as a path.
 */
export const LOG_FORMAT =
  '--format=%H%x00%P%x00%aN%x00%aE%x00%at%x00%cN%x00%cE%x00%ct%x00%an%x00%ae%x00%cn%x00%ce%x00%B';

/** The thirteen fields of LOG_FORMAT, in order. */
export type LogHeader = readonly [
  hash: string,
  parents: string,
  authorName: string,
  authorEmail: string,
  authorTime: string,
  committerName: string,
  committerEmail: string,
  committerTime: string,
  writtenAuthorName: string,
  writtenAuthorEmail: string,
  writtenCommitterName: string,
  writtenCommitterEmail: string,
  message: string,
];

export interface LogSink {
  commit(header: LogHeader): void;
  /** One file of the commit last passed to `commit`; `path` is the new path of a rename. */
  file(added: string, deleted: string, path: string): void;
  /** The commit last passed to `commit` has all its files. */
  end(): void;
}

const HEADER_FIELDS = 13;

type State =
  | { readonly kind: 'header'; readonly fields: string[] }
  | { readonly kind: 'files' }
  | { readonly kind: 'rename-old'; readonly added: string; readonly deleted: string }
  | { readonly kind: 'rename-new'; readonly added: string; readonly deleted: string }
  | { readonly kind: 'idle' };

// Shared: most tokens are files, and a new state object for each would be garbage per token.
const FILES: State = { kind: 'files' };
const IDLE: State = { kind: 'idle' };

export interface LogStreamParser {
  /** Text as it arrives (decoded: a chunk never ends inside a character). */
  push(chunk: string): void;
  /** The output ended: the last commit is complete. */
  finish(): void;
}

export function createLogStreamParser(sink: LogSink): LogStreamParser {
  let state: State = IDLE;
  let pending = '';

  const token = (value: string): void => {
    state = step(state, value, sink);
  };

  return {
    push(chunk) {
      let start = 0;
      let nul = chunk.indexOf('\0');
      if (nul < 0) {
        pending += chunk;
        return;
      }
      token(pending + chunk.slice(0, nul));
      start = nul + 1;
      nul = chunk.indexOf('\0', start);
      while (nul >= 0) {
        token(chunk.slice(start, nul));
        start = nul + 1;
        nul = chunk.indexOf('\0', start);
      }
      pending = chunk.slice(start);
    },
    finish() {
      // Every token is NUL-terminated under -z: anything left over is not a whole token.
      pending = '';
      if (state.kind === 'files') sink.end();
      state = IDLE;
    },
  };
}

function step(state: State, value: string, sink: LogSink): State {
  switch (state.kind) {
    case 'header':
      return headerField(state.fields, value, sink);
    case 'rename-old':
      return { kind: 'rename-new', added: state.added, deleted: state.deleted };
    case 'rename-new':
      sink.file(state.added, state.deleted, value);
      return FILES;
    case 'files':
      return fileOrNextCommit(value, sink);
    case 'idle':
      return isFullCommitId(value) ? { kind: 'header', fields: [value] } : state;
  }
}

function headerField(fields: string[], value: string, sink: LogSink): State {
  fields.push(value);
  if (fields.length < HEADER_FIELDS) return { kind: 'header', fields };
  sink.commit(fields as unknown as LogHeader);
  return FILES;
}

function fileOrNextCommit(value: string, sink: LogSink): State {
  if (isFullCommitId(value)) {
    sink.end();
    return { kind: 'header', fields: [value] };
  }
  const entry = value.startsWith('\n') ? value.slice(1) : value;
  const firstTab = entry.indexOf('\t');
  const secondTab = entry.indexOf('\t', firstTab + 1);
  // Not a numstat entry: nothing git prints here, but skipping keeps the stream in step.
  if (firstTab < 0 || secondTab < 0) return FILES;
  const added = entry.slice(0, firstTab);
  const deleted = entry.slice(firstTab + 1, secondTab);
  const path = entry.slice(secondTab + 1);
  if (path === '') return { kind: 'rename-old', added, deleted };
  sink.file(added, deleted, path);
  return FILES;
}
