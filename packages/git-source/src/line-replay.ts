import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { abortError } from '@cadence-detect/errors';
import { gitEnvironment } from './git-process.js';

/** A line whose origin the replay cannot know (it came in through a merge, or its file was not followed). */
export const UNKNOWN_ORIGIN = -1;

export interface ReplayedCommit {
  readonly hash: string;
  readonly isMerge: boolean;
}

/** A deleted line, seen by the replay: who wrote it (an index into the replayed commits, or UNKNOWN_ORIGIN) and where it was. */
export interface Deletion {
  /** The deleting commit (full hash). */
  readonly by: string;
  /** The commit that wrote the line, or null when the replay cannot know (a merge brought it in). */
  readonly origin: string | null;
  /** The parent's path and line number (1-based): where a blame of the first parent finds it. */
  readonly path: string;
  readonly line: number;
}

interface FileDiff {
  oldPath: string | null;
  newPath: string | null;
  renameFrom: string | null;
  renameTo: string | null;
  binary: boolean;
  hunks: [number, number, number, number][];
}

const unquote = (text: string): string => {
  if (!text.startsWith('"')) return text;
  try {
    return JSON.parse(text) as string;
  } catch {
    return text;
  }
};

/**
 * Replays the first-parent history, oldest first, from ONE streaming
 * `git log --first-parent --diff-merges=first-parent -p -U0 -w -M --reverse`: each followed file
 * keeps, per line, the index of the commit that wrote it; every deleted line is handed to
 * `onDeletion` with that origin. Whitespace-only changes keep a line's origin (`-w`); a rename moves
 * the file's lines. A merge's lines (the side branch's work) get UNKNOWN_ORIGIN, as do files that
 * are skipped (`follows` false: excluded or binary). Returns the replayed commits in order.
 */
export function replayFirstParent(dir: string, head: string, follows: (path: string) => boolean, onDeletion: (deletion: Deletion) => void, signal?: AbortSignal): Promise<ReplayedCommit[]> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(abortError(signal));
      return;
    }
    const child = spawn('git', ['-c', 'core.quotePath=false', 'log', '--first-parent', '--diff-merges=first-parent', '-p', '-U0', '-w', '-M', '--reverse', '--no-color', '--no-ext-diff', '--format=%x00%H %P', '--end-of-options', head], { cwd: dir, stdio: ['ignore', 'pipe', 'ignore'], env: gitEnvironment() });
    const onAbort = (): void => {
      child.kill('SIGKILL');
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    const files = new Map<string, number[]>();
    const commits: ReplayedCommit[] = [];
    let file: FileDiff | null = null;
    // Lines of the current hunk still to skip (its `-` and `+` lines).
    let skip = 0;

    const originOf = (index: number | undefined): string | null => (index === undefined || index === UNKNOWN_ORIGIN ? null : commits[index]!.hash);
    const apply = (diff: FileDiff): void => {
      const index = commits.length - 1;
      const commit = commits[index]!;
      const from = diff.oldPath ?? diff.renameFrom;
      const to = diff.newPath ?? diff.renameTo;
      const old = from ? files.get(from) : [];
      if (from && to !== from) files.delete(from);
      if (diff.binary || (to && !follows(to))) {
        if (to) files.delete(to);
        return;
      }
      if (old === undefined) {
        // A file not followed before (binary or excluded until now): its lines' origins stay unknown.
        if (to) files.delete(to);
        for (const [a, b] of diff.hunks) for (let i = 0; i < b; i++) onDeletion({ by: commit.hash, origin: null, path: from!, line: a + i });
        return;
      }
      const origin = commit.isMerge ? UNKNOWN_ORIGIN : index;
      const out: number[] = [];
      let position = 0;
      for (const [a, b, , d] of diff.hunks) {
        const start = b === 0 ? a : a - 1;
        for (; position < start && position < old.length; position++) out.push(old[position]!);
        for (let i = 0; i < b; i++, position++) onDeletion({ by: commit.hash, origin: originOf(old[position]), path: from!, line: position + 1 });
        for (let i = 0; i < d; i++) out.push(origin);
      }
      for (; position < old.length; position++) out.push(old[position]!);
      if (to) files.set(to, out);
    };
    const finishFile = (): void => {
      if (file) apply(file);
      file = null;
    };

    const reader = createInterface({ input: child.stdout, crlfDelay: Infinity });
    reader.on('line', (line) => {
      if (skip > 0) {
        if (line.startsWith('\\')) return; // "\ No newline at end of file" belongs to the line before
        skip--;
        return;
      }
      if (line.startsWith('\0')) {
        finishFile();
        const [hash = '', ...parents] = line.slice(1).trim().split(' ');
        commits.push({ hash, isMerge: parents.length > 1 });
      } else if (line.startsWith('diff --git ')) {
        finishFile();
        file = { oldPath: null, newPath: null, renameFrom: null, renameTo: null, binary: false, hunks: [] };
      } else if (!file) {
        return;
      } else if (line.startsWith('--- ')) {
        file.oldPath = line === '--- /dev/null' ? null : unquote(line.slice(4)).replace(/^a\//, '');
      } else if (line.startsWith('+++ ')) {
        file.newPath = line === '+++ /dev/null' ? null : unquote(line.slice(4)).replace(/^b\//, '');
        if (file.newPath === null && file.oldPath === null) file.binary = true;
      } else if (line.startsWith('rename from ')) {
        file.renameFrom = unquote(line.slice(12));
      } else if (line.startsWith('rename to ')) {
        file.renameTo = unquote(line.slice(10));
      } else if (line.startsWith('new file mode')) {
        file.renameFrom = null;
        file.oldPath = null;
      } else if (line.startsWith('Binary files ')) {
        file.binary = true;
      } else if (line.startsWith('@@ ')) {
        const hunk = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/.exec(line);
        if (!hunk) return;
        const b = hunk[2] === undefined ? 1 : Number(hunk[2]);
        const d = hunk[4] === undefined ? 1 : Number(hunk[4]);
        file.hunks.push([Number(hunk[1]), b, Number(hunk[3]), d]);
        skip = b + d;
      }
    });
    child.on('error', reject);
    child.on('close', (code) => {
      signal?.removeEventListener('abort', onAbort);
      if (signal?.aborted) {
        reject(abortError(signal));
        return;
      }
      finishFile();
      if (code === 0) resolve(commits);
      else reject(new Error(`git log -p exited with ${code}`));
    });
  });
}
