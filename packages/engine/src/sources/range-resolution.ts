import { runGitCommand, type ClonedRepository } from '@cadence-detect/git-source';
import {
  isFullCommitId,
  type AnalysisEvent,
  type RepositorySourceInfo,
  type SquashJudgement,
} from '@cadence-detect/plugin-sdk';
import type { AnalysisRequest } from '../analysis-request.js';

type Range = RepositorySourceInfo['range'];

/**
 * The range a request analyses, once its clone is open: a head named by a prefix made whole, a
 * pull request's base found, and a squash commit's request judged by its own commits where its
 * head ref came with the clone (else the squash as itself, and why).
 */
export async function resolveRange(
  request: Extract<AnalysisRequest, { kind: 'repository' }>,
  clone: ClonedRepository,
  requested: Range,
  signal: AbortSignal,
  emit: (event: AnalysisEvent) => void,
): Promise<{ range: Range; squash: SquashJudgement | undefined }> {
  let range = requested;
  // A head named by a prefix (a Bitbucket request) is known in full once its branch is fetched.
  if (range && clone.resolvedCommit) range = { ...range, after: clone.resolvedCommit };
  if (range && request.ref && range.before === null)
    range = { ...range, before: await mergeBase(clone.dir, clone.headCommit, range.after, signal) };
  let squash: SquashJudgement | undefined;
  if (request.squash && range) {
    // The request's own commits: from where it left the branch the squash landed on, to its head.
    const usable =
      clone.fetchedRefs?.includes(request.squash.ref) &&
      (await runGitCommand(clone.dir, ['cat-file', '-e', `${request.squash.head}^{commit}`], signal)).code === 0;
    const from = usable && range.before ? await mergeBase(clone.dir, range.before, request.squash.head, signal) : null;
    if (usable && from) {
      range = { before: from, after: request.squash.head };
      squash = { commit: request.squash.commit, request: request.squash.request, judged_by: 'request' };
      emit({
        event: 'fetch',
        message: `judging the squashed request ${request.squash.request} by its ${request.squash.ref} commits`,
      });
    } else {
      squash = {
        commit: request.squash.commit,
        request: request.squash.request,
        judged_by: 'squash',
        reason: usable ? 'no merge base with the branch' : `${request.squash.ref} could not be fetched`,
      };
    }
  }
  return { range, squash };
}

/** Where a request's commits begin: the merge base of the target branch's head and the request's head (both full hashes). */
async function mergeBase(
  dir: string,
  targetHead: string,
  requestHead: string,
  signal: AbortSignal,
): Promise<string | null> {
  const found = await runGitCommand(dir, ['merge-base', targetHead, requestHead], signal);
  const base = found.stdout.trim();
  return found.code === 0 && isFullCommitId(base) ? base : null;
}
