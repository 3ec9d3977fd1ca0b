import type { SimpleGit } from 'simple-git';
import { abortError } from '@cadence-detect/errors';
import type { PluginLogger } from '@cadence-detect/plugin-sdk';
import { runGitCommand } from './git-process.js';
import { numberOfSquashSubject, requestHeads } from './request-heads.js';

const ADVERTISED = /^[0-9a-f]{40}(?:[0-9a-f]{24})?\trefs\/(pull|merge-requests)\/([1-9]\d{0,9})\/head$/;

/**
 * Fetches the head refs of the requests the history's squash commits name (`(#N)`), the newest
 * `max` of them, from the remote that has them and into the clone under the same names: a whole
 * history's squashes are then judged by their requests' own commits as a push's is. One listing of
 * the remote's request heads and one fetch; heads the clone already holds are not fetched again. A
 * failure leaves the clone as it was: the squashes are then judged as themselves.
 * Returns how many heads were fetched.
 */
export async function fetchSquashedRequestHeads(
  git: SimpleGit,
  dir: string,
  remote: string,
  options: { readonly max: number; readonly signal: AbortSignal; readonly logger?: PluginLogger },
): Promise<number> {
  const { signal } = options;
  // In the clone: a remote named `origin` is the clone's own.
  const inClone = git.cwd(dir);
  try {
    const subjects = await runGitCommand(dir, ['log', '--no-merges', '--format=%s', 'HEAD', '--'], signal);
    if (subjects.code !== 0) return 0;
    const named: number[] = [];
    const seen = new Set<number>();
    for (const subject of subjects.stdout.split('\n')) {
      const number = numberOfSquashSubject(subject);
      if (number === null || seen.has(number)) continue;
      seen.add(number);
      named.push(number);
      if (named.length >= options.max) break;
    }
    if (named.length === 0) return 0;
    const held = await requestHeads(dir, signal);
    const advertised = new Map<number, string>();
    const listing = await inClone.raw(['ls-remote', '--', remote, 'refs/pull/*/head', 'refs/merge-requests/*/head']);
    for (const line of listing.split('\n')) {
      const match = ADVERTISED.exec(line.trim());
      if (!match) continue;
      const number = Number(match[2]);
      if (match[1] === 'pull' || !advertised.has(number)) advertised.set(number, `refs/${match[1]}/${number}/head`);
    }
    const refspecs = named
      .filter((number) => advertised.has(number) && !held.has(number))
      .map((number) => `+${advertised.get(number)!}:${advertised.get(number)!}`);
    if (refspecs.length === 0) return 0;
    await inClone.raw(['fetch', '--no-tags', '--no-write-fetch-head', '--', remote, ...refspecs]);
    return refspecs.length;
  } catch (error) {
    if (signal.aborted) throw abortError(signal);
    options.logger?.warn('request heads not fetched', {
      reason: error instanceof Error ? error.message.slice(0, 200) : 'unknown',
    });
    return 0;
  }
}
