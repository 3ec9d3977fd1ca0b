import { spawn } from 'node:child_process';
import { abortError } from '@cadence-detect/errors';
import { gitEnvironment, gitInvocation } from './git-process.js';

const MIB = 1024 * 1024;

/**
 * The most of each kind of file Cadence reads whole from a repository (docs/configuration.md, Size
 * caps): a repository's files are as untrusted as its messages, and a blob of hundreds of megabytes
 * compresses to kilobytes. A file above its cap is not read: it is skipped, with the reason.
 */
export const BLOB_CAPS = Object.freeze({
  /** A `.gitattributes` file (above it: the line counts are skipped, saying why). */
  attributes: 1 * MIB,
  /** `.mailmap` (above it: no mailmap is applied, with a warning; git parses a 25 MB one in 21 s per read). */
  mailmap: 1 * MIB,
  /** An Agent Trace file under `.agent-trace/` (above it: skipped, like a malformed record). */
  traceFile: 16 * MIB,
  /** A `-diff` text file whose lines are counted from its blob (above it: counted as binary). */
  noDiffText: 16 * MIB,
});

/** A blob read under a cap: its text, or why not. */
export type CappedBlob =
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'too-large'; readonly bytes: number }
  | { readonly kind: 'missing' };

/**
 * The blob `spec` names (`<commit>:<path>`, given to git on its input, never as an argument) when
 * it is at most `maxBytes`: one `git cat-file --batch` whose header says the size before any
 * content is read, so a larger blob is refused without being held.
 */
export function readBlobCapped(dir: string, spec: string, maxBytes: number, signal?: AbortSignal): Promise<CappedBlob> {
  if (signal?.aborted) return Promise.reject(abortError(signal));
  if (spec.includes('\n')) return Promise.resolve({ kind: 'missing' });
  return new Promise((resolve, reject) => {
    const git = gitInvocation(dir, ['cat-file', '--batch']);
    const child = spawn(git.command, git.args, {
      cwd: git.cwd,
      stdio: ['pipe', 'pipe', 'ignore'],
      env: gitEnvironment(),
    });
    let settled = false;
    const finish = (outcome: CappedBlob | Error): void => {
      if (settled) return;
      settled = true;
      signal?.removeEventListener('abort', onAbort);
      child.kill('SIGKILL');
      if (outcome instanceof Error) reject(outcome);
      else resolve(outcome);
    };
    const onAbort = (): void => {
      if (signal) finish(abortError(signal));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    const chunks: Buffer[] = [];
    let received = 0;
    let size: number | null = null;
    let header = '';
    child.stdout.on('data', (chunk: Buffer) => {
      if (settled) return;
      if (size === null) {
        const newline = chunk.indexOf(0x0a);
        header += chunk.subarray(0, newline < 0 ? chunk.length : newline).toString('utf8');
        if (newline < 0) {
          if (header.length > 512) finish({ kind: 'missing' });
          return;
        }
        const parsed = /^\S+ blob (\d+)$/.exec(header);
        if (!parsed) {
          finish({ kind: 'missing' });
          return;
        }
        size = Number(parsed[1]);
        if (size > maxBytes) {
          finish({ kind: 'too-large', bytes: size });
          return;
        }
        chunk = chunk.subarray(newline + 1);
      }
      const take = Math.min(chunk.length, size - received);
      chunks.push(chunk.subarray(0, take));
      received += take;
      if (received === size) finish({ kind: 'text', text: Buffer.concat(chunks, size).toString('utf8') });
    });
    child.on('error', (error) => finish(error));
    child.stdin.on('error', () => undefined);
    child.on('close', () => finish({ kind: 'missing' }));
    child.stdin.end(`${spec}\n`);
  });
}
