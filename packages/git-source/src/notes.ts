import { spawn } from 'node:child_process';
import { abortError } from '@cadence-detect/errors';
import { capped } from './commit-record.js';
import { gitEnvironment, gitInvocation, runGitCommand } from './git-process.js';
import { isFullCommitId } from '@cadence-detect/plugin-sdk';

/** Where the Git AI Standard keeps its authorship logs. */
export const AI_NOTES_REF = 'refs/notes/ai';

/** Bounds on what is kept: notes are repository data, as untrusted as commit messages. */
export const NOTE_LIMITS = { notes: 100_000, noteChars: 16_384, wholeNoteChars: 16 * 1024 * 1024 } as const;

/**
 * The notes under `ref`, by full commit hash, each cut at `maxChars` (NOTE_LIMITS.noteChars unless given:
 * the line counts read authorship logs whole, up to NOTE_LIMITS.wholeNoteChars). A repository
 * without the ref has none, which is the usual case: that is an empty map, not an error.
 */
export async function readNotes(
  dir: string,
  ref: string = AI_NOTES_REF,
  signal?: AbortSignal,
  maxChars: number = NOTE_LIMITS.noteChars,
  /** Only the notes of these commits are read (the listing names every note; only these blobs are read). */
  only?: ReadonlySet<string>,
  /** Filled with how many note blobs were read (for tests). */
  stats?: { blobsRead: number },
): Promise<Map<string, string>> {
  const notes = new Map<string, string>();
  const read = await streamNotes(dir, ref, { maxChars, signal, only }, (commit, text) => notes.set(commit, text));
  if (stats) stats.blobsRead = read;
  return notes;
}

/**
 * The notes under `ref` handed to `onNote` one at a time as `git cat-file --batch` streams them, each
 * cut at `maxChars`: only one note is held at once, whatever the notes weigh together. Returns how
 * many note blobs were read.
 */
export async function streamNotes(
  dir: string,
  ref: string,
  options: {
    readonly maxChars: number;
    readonly signal?: AbortSignal | undefined;
    readonly only?: ReadonlySet<string> | undefined;
  },
  onNote: (commit: string, text: string) => void,
): Promise<number> {
  const { signal, only } = options;
  const present = await runGitCommand(
    dir,
    ['rev-parse', '--verify', '--quiet', '--end-of-options', `${ref}^{commit}`],
    signal,
  );
  if (present.code !== 0) return 0;
  const listed = await runGitCommand(dir, ['notes', `--ref=${ref}`, 'list'], signal);
  if (listed.code !== 0) return 0;
  const pairs: { blob: string; commit: string }[] = [];
  for (const line of listed.stdout.split('\n')) {
    const [blob, commit] = line.trim().split(' ');
    if (blob && commit && isFullCommitId(blob) && isFullCommitId(commit) && (!only || only.has(commit)))
      pairs.push({ blob, commit });
    if (pairs.length >= NOTE_LIMITS.notes) break;
  }
  if (pairs.length === 0) return 0;
  let index = 0;
  await readBlobs(
    dir,
    pairs.map((p) => p.blob),
    options.maxChars,
    signal,
    (text) => {
      const pair = pairs[index++];
      if (pair && text !== undefined) onNote(pair.commit, text);
    },
  );
  return pairs.length;
}

/**
 * Blob contents through one `git cat-file --batch`, each cut at `maxChars` as it streams and handed
 * to `onBlob` in order: a note's bytes past the cut are counted and dropped, never held, so reading
 * is linear in the notes' size and memory stays at the cut whatever a note weighs.
 */
function readBlobs(
  dir: string,
  blobs: readonly string[],
  maxChars: number,
  signal: AbortSignal | undefined,
  onBlob: (content: string | undefined) => void,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const git = gitInvocation(dir, ['cat-file', '--batch']);
    const child = spawn(git.command, git.args, {
      cwd: git.cwd,
      stdio: ['pipe', 'pipe', 'ignore'],
      env: gitEnvironment(),
    });
    const onAbort = (): void => {
      child.kill('SIGKILL');
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    const parser = new BatchBlobReader(maxChars, onBlob);
    child.stdout.on('data', (chunk: Buffer) => parser.push(chunk));
    child.on('error', reject);
    child.stdin.on('error', () => undefined);
    child.on('close', () => {
      signal?.removeEventListener('abort', onAbort);
      if (signal?.aborted) {
        reject(abortError(signal));
        return;
      }
      resolve();
    });
    child.stdin.end(blobs.map((b) => `${b}\n`).join(''));
  });
}

/** The longest header `cat-file --batch` prints: `<object id> <type> <size>`. */
const MAX_HEADER_BYTES = 512;

/**
 * Reads `git cat-file --batch` output chunk by chunk: `<id> blob <size>\n<content>\n` per object,
 * `<id> missing\n` (or another type's header) as undefined. Each content is kept up to the bytes
 * that can hold `maxChars` characters (3 bytes of UTF-8 per UTF-16 unit at most, and one more
 * character), the rest skipped as it passes; `bytesCopied` counts what was copied, for the tests.
 */
export class BatchBlobReader {
  readonly results: (string | undefined)[] = [];
  bytesCopied = 0;
  private readonly keepBytes: number;
  private header: Buffer[] = [];
  private headerBytes = 0;
  /** Content bytes of the current blob still to come, or null while reading a header. */
  private remaining: number | null = null;
  /** The newline after a content. */
  private trailer = false;
  private kept: Buffer[] = [];
  private keptBytes = 0;

  constructor(
    private readonly maxChars: number,
    /** Given, each content goes here as it completes and `results` stays empty: one blob held at a time. */
    private readonly onBlob?: (content: string | undefined) => void,
  ) {
    this.keepBytes = 3 * maxChars + 4;
  }

  private done(content: string | undefined): void {
    if (this.onBlob) this.onBlob(content);
    else this.results.push(content);
  }

  push(chunk: Buffer): void {
    let offset = 0;
    while (offset < chunk.length) {
      if (this.trailer) {
        this.trailer = false;
        offset++;
        continue;
      }
      if (this.remaining === null) {
        const newline = chunk.indexOf(0x0a, offset);
        const end = newline < 0 ? chunk.length : newline;
        if (this.headerBytes < MAX_HEADER_BYTES) {
          const part = chunk.subarray(offset, Math.min(end, offset + MAX_HEADER_BYTES - this.headerBytes));
          this.header.push(part);
          this.headerBytes += part.length;
        }
        if (newline < 0) return;
        offset = newline + 1;
        this.startObject(Buffer.concat(this.header).toString('utf8'));
        this.header = [];
        this.headerBytes = 0;
        continue;
      }
      const take = Math.min(this.remaining, chunk.length - offset);
      const keep = Math.min(take, this.keepBytes - this.keptBytes);
      if (keep > 0) {
        this.kept.push(chunk.subarray(offset, offset + keep));
        this.keptBytes += keep;
      }
      offset += take;
      this.remaining -= take;
      if (this.remaining === 0) this.endObject();
    }
  }

  private startObject(header: string): void {
    const size = /^\S+ blob (\d+)$/.exec(header);
    if (!size) {
      // "<object> missing" or another type: no content follows.
      this.done(undefined);
      return;
    }
    this.remaining = Number(size[1]);
    if (this.remaining === 0) this.endObject();
  }

  private endObject(): void {
    const content = Buffer.concat(this.kept, this.keptBytes);
    this.bytesCopied += this.keptBytes;
    this.done(capped(content.toString('utf8'), this.maxChars));
    this.kept = [];
    this.keptBytes = 0;
    this.remaining = null;
    this.trailer = true;
  }
}
