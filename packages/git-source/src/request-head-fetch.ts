import type { SimpleGit } from 'simple-git';
import { abortError } from '@cadence-detect/errors';
import type { PluginLogger } from '@cadence-detect/plugin-sdk';
import { runGitCommand } from './git-process.js';
import { numberOfSquashSubject, requestHeads } from './request-heads.js';

/** The newest commits whose subjects are read for `(#N)`: bounds the read on a history of millions. */
export const SUBJECTS_READ = 50_000;

const ADVERTISED = /^[0-9a-f]{40}(?:[0-9a-f]{24})?\trefs\/pull\/([1-9]\d{0,9})\/head$/;

export interface RequestHeadFetchOptions {
  readonly max: number;
  /** The clone session's signal: its time limit and size cap stop this step too. */
  readonly signal: AbortSignal;
  /** The caller's own (the job's): only its abort is passed on; the session's stopping this step is not. */
  readonly callerSignal?: AbortSignal;
  readonly logger?: PluginLogger;
}

/**
 * Fetches the pull request heads (`refs/pull/N/head`) the history's squash commits name (`(#N)`),
 * the newest `max` of them, into the clone under the same names: a whole history's squashes are
 * then judged by their requests' own commits as a push's is. One `git log` of the newest
 * SUBJECTS_READ subjects, one listing of just those refs on the remote, one fetch; heads the clone
 * already holds are not fetched again.
 *
 * Evidence beside the clone, never a reason to fail it: it runs last in the clone's session, and a
 * failure (the remote's refusal, the session's time limit or size cap reached meanwhile) is logged
 * and leaves the squashes to be judged as themselves. Only the caller's own abort is passed on.
 * Returns how many heads were fetched.
 */
export async function fetchSquashedRequestHeads(
  git: SimpleGit,
  dir: string,
  remote: string,
  options: RequestHeadFetchOptions,
): Promise<number> {
  const { signal } = options;
  if (!(options.max > 0)) return 0;
  // In the clone: a remote named `origin` is the clone's own.
  const inClone = git.cwd(dir);
  try {
    const subjects = await runGitCommand(
      dir,
      ['log', '--no-merges', '--format=%s', `--max-count=${SUBJECTS_READ}`, 'HEAD', '--'],
      signal,
    );
    if (subjects.code !== 0) return 0;
    const held = await requestHeads(dir, signal);
    const named = new Set<number>();
    for (const subject of subjects.stdout.split('\n')) {
      const number = numberOfSquashSubject(subject);
      if (number === null || held.has(number)) continue;
      named.add(number);
      if (named.size >= options.max) break;
    }
    if (named.size === 0) return 0;
    const refs = [...named].map((number) => `refs/pull/${number}/head`);
    const listing = await inClone.raw(['ls-remote', '--', remote, ...refs]);
    const advertised: string[] = [];
    for (const line of listing.split('\n')) {
      const match = ADVERTISED.exec(line.trim());
      if (match && named.has(Number(match[1]))) advertised.push(`refs/pull/${match[1]}/head`);
    }
    if (advertised.length === 0) return 0;
    await inClone.raw([
      'fetch',
      '--no-tags',
      '--no-write-fetch-head',
      '--',
      remote,
      ...advertised.map((ref) => `+${ref}:${ref}`),
    ]);
    return advertised.length;
  } catch (error) {
    if (options.callerSignal?.aborted) throw abortError(options.callerSignal);
    options.logger?.warn('request heads not fetched', {
      reason: signal.aborted
        ? 'the clone session stopped'
        : error instanceof Error
          ? error.message.slice(0, 200)
          : 'unknown',
    });
    return 0;
  }
}
