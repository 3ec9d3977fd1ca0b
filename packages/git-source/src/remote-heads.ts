import { itemAt } from '@cadence-detect/errors';
import type { SimpleGit } from 'simple-git';
import { runGitCommand } from './git-process.js';
import { AI_NOTES_REF } from './notes.js';

/** What a remote advertises for HEAD, a branch and the AI notes: one `ls-remote` round trip. */
export interface RemoteHeads {
  /** The branch HEAD names, when the remote says (`--symref`). */
  readonly headBranch: string | undefined;
  /** Ref name → commit or object id, for `refs/heads/<branch>` and the `refs/notes/ai*` refs. */
  readonly refs: ReadonlyMap<string, string>;
}

export async function remoteHeads(git: SimpleGit, url: string, branch: string | undefined): Promise<RemoteHeads> {
  const patterns = ['HEAD', ...(branch ? [`refs/heads/${branch}`] : []), `${AI_NOTES_REF}*`];
  const listed = await git.raw(['ls-remote', '--symref', '--', url, ...patterns]);
  let headBranch: string | undefined;
  const refs = new Map<string, string>();
  for (const line of listed.split('\n')) {
    const symref = /^ref: refs\/heads\/(\S+)\tHEAD$/.exec(line);
    if (symref) {
      headBranch = symref[1];
      continue;
    }
    const entry = /^([0-9a-f]{40,64})\t(\S+)$/.exec(line);
    // ls-remote matches patterns by their tail (`HEAD` also lists refs/heads/x/HEAD): only exact names count.
    if (
      entry &&
      (entry[2] === 'HEAD' || entry[2] === `refs/heads/${branch}` || itemAt(entry, 2).startsWith(AI_NOTES_REF))
    )
      refs.set(itemAt(entry, 2), itemAt(entry, 1));
  }
  // HEAD's own line stands for its branch only when no branch was asked for by name.
  const head = refs.get('HEAD');
  refs.delete('HEAD');
  if (!branch && headBranch && head) refs.set(`refs/heads/${headBranch}`, head);
  return { headBranch, refs };
}

/**
 * The mirror's branches and notes refs (ref name → id): one local git process, started beside the
 * ls-remote since it needs nothing from it (every branch is listed: the one asked for may be any).
 * Null when they cannot be read, which makes the mirror fetch.
 */
export async function mirrorRefs(dir: string, signal: AbortSignal): Promise<ReadonlyMap<string, string> | null> {
  const local = await runGitCommand(
    dir,
    ['for-each-ref', '--format=%(objectname) %(refname)', 'refs/heads/', 'refs/notes/'],
    signal,
  );
  if (local.code !== 0) return null;
  const have = new Map<string, string>();
  for (const line of local.stdout.split('\n')) {
    const space = line.indexOf(' ');
    if (space > 0) have.set(line.slice(space + 1), line.slice(0, space));
  }
  return have;
}

/**
 * Whether the mirror already holds what a fetch would bring: the branch at the remote's commit and
 * every AI notes ref the remote has at its id (a fetch does not prune, so notes the mirror has
 * beyond the remote's change nothing): then the branch's commit, and the fetch, with its
 * negotiation, is skipped; else null.
 */
export function mirrorIsCurrent(
  have: ReadonlyMap<string, string> | null,
  heads: RemoteHeads,
  branch: string,
): string | null {
  const remoteBranch = heads.refs.get(`refs/heads/${branch}`);
  if (!remoteBranch || !have) return null;
  // Only what the fetch would bring counts: HEAD's branch, listed when another was asked for, is
  // not fetched, so its moving would otherwise make every request for that branch fetch again.
  for (const [ref, id] of heads.refs) {
    if ((ref === `refs/heads/${branch}` || ref.startsWith('refs/notes/')) && have.get(ref) !== id) return null;
  }
  return remoteBranch;
}
