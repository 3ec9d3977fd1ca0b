import { spawn } from 'node:child_process';
import { abortError } from '@cadence-detect/errors';
import { capped } from './commit-record.js';
import { gitEnvironment, runGitCommand } from './git-process.js';
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
): Promise<Map<string, string>> {
  const notes = new Map<string, string>();
  const present = await runGitCommand(
    dir,
    ['rev-parse', '--verify', '--quiet', '--end-of-options', `${ref}^{commit}`],
    signal,
  );
  if (present.code !== 0) return notes;
  const listed = await runGitCommand(dir, ['notes', `--ref=${ref}`, 'list'], signal);
  if (listed.code !== 0) return notes;
  const pairs: { blob: string; commit: string }[] = [];
  for (const line of listed.stdout.split('\n')) {
    const [blob, commit] = line.trim().split(' ');
    if (blob && commit && isFullCommitId(blob) && isFullCommitId(commit)) pairs.push({ blob, commit });
    if (pairs.length >= NOTE_LIMITS.notes) break;
  }
  if (pairs.length === 0) return notes;
  const texts = await readBlobs(
    dir,
    pairs.map((p) => p.blob),
    maxChars,
    signal,
  );
  pairs.forEach((pair, index) => {
    const text = texts[index];
    if (text !== undefined) notes.set(pair.commit, text);
  });
  return notes;
}

/** Blob contents through one `git cat-file --batch`, each cut at the note limit as it streams. */
function readBlobs(
  dir: string,
  blobs: readonly string[],
  maxChars: number,
  signal?: AbortSignal,
): Promise<(string | undefined)[]> {
  return new Promise((resolve, reject) => {
    const child = spawn('git', ['cat-file', '--batch'], {
      cwd: dir,
      stdio: ['pipe', 'pipe', 'ignore'],
      env: gitEnvironment(),
    });
    const onAbort = (): void => {
      child.kill('SIGKILL');
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    const results: (string | undefined)[] = [];
    let buffer = Buffer.alloc(0);
    let expected: number | null = null;
    child.stdout.on('data', (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      for (;;) {
        if (expected === null) {
          const newline = buffer.indexOf(0x0a);
          if (newline < 0) return;
          const header = buffer.subarray(0, newline).toString('utf8');
          buffer = buffer.subarray(newline + 1);
          const size = /^\S+ blob (\d+)$/.exec(header);
          if (!size) {
            // "<object> missing" or another type: no content follows.
            results.push(undefined);
            continue;
          }
          expected = Number(size[1]);
        }
        if (buffer.length < expected + 1) return;
        const content = buffer.subarray(0, expected).toString('utf8');
        buffer = buffer.subarray(expected + 1);
        results.push(capped(content, maxChars));
        expected = null;
      }
    });
    child.on('error', reject);
    child.stdin.on('error', () => undefined);
    child.on('close', () => {
      signal?.removeEventListener('abort', onAbort);
      if (signal?.aborted) return reject(abortError(signal));
      resolve(results);
    });
    child.stdin.end(blobs.map((b) => `${b}\n`).join(''));
  });
}
