import { runGitCommand } from './git-process.js';

/** What a read found missing: the commits whose diff names a blob the repository lacks, and those files. */
export interface MissingBlobs {
  readonly commits: Set<string>;
  readonly files: Set<string>;
}

/** git's words for an object it does not have. */
export const MISSING_OBJECT = /unable to read [0-9a-f]{40,64}|missing blob|bad object|could not read blob/i;

/**
 * The blobs `rev`'s history names but the repository lacks: one `git rev-list --objects
 * --missing=print` for the missing ids, then one `git log --raw` (trees only, no blob read) for the
 * commits and files that name them.
 */
export async function missingBlobs(dir: string, rev: string, signal?: AbortSignal): Promise<MissingBlobs> {
  const listed = await runGitCommand(
    dir,
    ['rev-list', '--objects', '--missing=print', '--end-of-options', rev],
    signal,
  );
  const ids = new Set(
    listed.stdout
      .split('\n')
      .filter((line) => line.startsWith('?'))
      .map((line) => line.slice(1).trim()),
  );
  const commits = new Set<string>();
  const files = new Set<string>();
  if (ids.size === 0) return { commits, files };
  const raw = await runGitCommand(
    dir,
    [
      '-c',
      'core.quotePath=false',
      'log',
      '--raw',
      '--no-abbrev',
      '--no-renames',
      '-z',
      '--format=%x01%H',
      '--end-of-options',
      rev,
    ],
    signal,
  );
  let commit = '';
  let hit = false;
  for (const token of raw.stdout.split('\0')) {
    const text = token.replace(/^\n/, '');
    if (text.startsWith('\x01')) {
      commit = text.slice(1);
    } else if (text.startsWith(':')) {
      const [, , before, after] = text.split(' ');
      hit = ids.has(before ?? '') || ids.has(after ?? '');
    } else if (hit && text.length > 0) {
      commits.add(commit);
      files.add(text);
      hit = false;
    }
  }
  return { commits, files };
}
