import { LINE_DIFF_ARGS, streamCommitDiffs, type DiffReadOptions, type FileDiff } from './line-replay.js';

/**
 * At most this many new files of one commit are followed: a commit that renames files and adds
 * more than this (a vendored tree moved in) keeps `git log -M`'s pairing for the rest.
 */
export const MAX_FOLLOWED_FILES = 200;

/** At most this many deleted files are a followed file's possible sources (a command line's worth). */
export const MAX_SOURCES = 500;

/** How many new files are followed side by side (the history's read waits for them). */
const FOLLOWS_AT_ONCE = 4;

/** A file's path in a diff: where its lines go. */
const pathAfter = (diff: FileDiff): string | null => diff.newPath ?? diff.renameTo;

/**
 * The new files of a commit whose source blame could pair otherwise than `git log -M` does, and the
 * files each could come from. In a commit that renames files, `git log -M` gives each deleted file
 * to one new file at most, while blame, following one file, takes the deleted file most like it,
 * even one `git log` gave to another. The sources are every file the commit deletes, those
 * `git log` calls renamed included. A commit without a rename has no such file: every deleted file
 * that was like a new one enough would have been paired with it.
 */
export function filesToFollow(
  diffs: readonly FileDiff[],
  follows: (path: string) => boolean,
): { paths: string[]; sources: string[] } {
  if (!diffs.some((diff) => diff.renameFrom !== null && diff.renameFrom !== diff.renameTo))
    return { paths: [], sources: [] };
  const sources = diffs.flatMap((diff) =>
    diff.renameFrom !== null && diff.renameFrom !== diff.renameTo
      ? [diff.renameFrom]
      : diff.oldPath !== null && diff.newPath === null
        ? [diff.oldPath]
        : [],
  );
  const paths: string[] = [];
  for (const diff of diffs) {
    const to = pathAfter(diff);
    if (diff.oldPath === null && diff.renameFrom === null && to && !diff.binary && follows(to)) paths.push(to);
    if (paths.length >= MAX_FOLLOWED_FILES) break;
  }
  return { paths, sources: sources.slice(0, MAX_SOURCES) };
}

/**
 * Each of `paths` as blame follows it from `commit` to `parent`: `git diff-tree -M` of that file
 * and the deleted files alone, so the file is the only one the sources can go to and gets the one
 * most like it (as blame's rename search, following one file, does). The diff from the file it
 * came from, for those that came from one. A source the repository lacks (a partial clone) leaves
 * the file as `git log -M` paired it.
 */
export async function followedDiffs(
  dir: string,
  commit: string,
  parent: string,
  { paths, sources }: { readonly paths: readonly string[]; readonly sources: readonly string[] },
  { signal, bounds }: DiffReadOptions,
): Promise<Map<string, FileDiff>> {
  const found = new Map<string, FileDiff>();
  const followOne = (path: string): Promise<void> =>
    streamCommitDiffs(
      dir,
      ['--literal-pathspecs', 'diff-tree', '--stdin', '-r', ...LINE_DIFF_ARGS, '--', path, ...sources],
      {
        commit: () => undefined,
        content: true,
        file: (diff) => {
          if (pathAfter(diff) === path && diff.renameFrom !== null && diff.renameFrom !== path) found.set(path, diff);
        },
      },
      { signal, input: `${commit} ${parent}\n`, bounds },
    ).catch((error: unknown) => {
      if (signal?.aborted) throw error;
      found.delete(path);
    });
  for (let at = 0; at < paths.length; at += FOLLOWS_AT_ONCE)
    await Promise.all(paths.slice(at, at + FOLLOWS_AT_ONCE).map(followOne));
  return found;
}
