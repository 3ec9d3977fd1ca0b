import { isFullCommitId, type ForgeTarget } from '@cadence-detect/plugin-sdk';
import {
  invalidPayload,
  payloadField,
  payloadText,
  requestNumber,
  type PushOrIgnored,
} from '@cadence-detect/forge-kit';

/** A workspace or repository slug as Bitbucket writes it: letters, digits, `-`, `_`, `.`, never `.` or `..` alone. */
const SLUG = /^(?!\.{1,2}$)[A-Za-z0-9_.-]{1,128}$/;
/** A request's head as its payload names it: Bitbucket Cloud gives the first 12 characters, sometimes more. */
const HEAD_PREFIX = /^[0-9a-f]{12,40}$/i;

/**
 * A branch name git would take as a ref and never as an option or a revision expression: the
 * source branch becomes `refs/heads/<name>`, fetched by name, so a hostile one is refused at intake.
 */
// eslint-disable-next-line no-control-regex -- controls in a branch name are what intake refuses
const UNSAFE_BRANCH = /^-|^\/|\/$|\.\.|\/\/|@\{|\.lock$|[\s\x00-\x1f\x7f~^:?*[\\]/;

function branchName(value: string | undefined, field: string): string {
  if (!value) throw invalidPayload(field, 'missing');
  if (value.length > 255 || UNSAFE_BRANCH.test(value)) throw invalidPayload(field, 'not a branch name');
  return value;
}

export type PushOutcome = PushOrIgnored;

function target(fullName: string | undefined, sha: string): ForgeTarget | null {
  const parts = fullName?.split('/') ?? [];
  return fullName && parts.length === 2 && parts.every((part) => SLUG.test(part))
    ? { forge: 'bitbucket', repository: fullName, sha }
    : null;
}

/**
 * A repository's clone URL: its `links.html.href` plus `.git`, with any `user@` taken out (a link
 * may carry the name of whoever is logged in; a clone URL never carries a name or a secret).
 */
export function cloneUrlOf(repository: unknown, field: string): string {
  const href = payloadText(repository, 'links', 'html', 'href');
  if (!href) throw invalidPayload(`${field}.links.html.href`, 'missing');
  let url: URL;
  try {
    url = new URL(href);
  } catch {
    throw invalidPayload(`${field}.links.html.href`, 'not a URL');
  }
  url.username = '';
  url.password = '';
  url.search = '';
  url.hash = '';
  return `${url.toString().replace(/\/+$/, '')}.git`;
}

/**
 * A push (`repo:push`): Bitbucket lists one change per branch or tag pushed. The first branch that
 * moved is analyzed over `old..new` (a new branch from its own history); tags and deleted branches
 * ask for nothing.
 */
export function bitbucketPush(payload: unknown): PushOutcome {
  const changes = payloadField(payload, 'push', 'changes');
  if (!Array.isArray(changes)) throw invalidPayload('push.changes', 'missing');
  const moved = changes.find(
    (change: unknown) =>
      payloadText(change, 'new', 'type') === 'branch' && payloadText(change, 'new', 'target', 'hash') !== undefined,
  ) as unknown;
  if (moved === undefined) {
    const kinds = changes.map((change: unknown) => (payloadField(change, 'new') === null ? 'deleted' : 'tag'));
    return { kind: 'ignored', reason: kinds.includes('deleted') ? 'branch deleted' : 'tag push' };
  }
  const after = payloadText(moved, 'new', 'target', 'hash');
  if (after === undefined || !isFullCommitId(after, { anyCase: true }))
    throw invalidPayload('push.changes.new.target.hash', 'must be a commit id');
  const branch = payloadText(moved, 'new', 'name');
  if (!branch) throw invalidPayload('push.changes.new.name', 'missing');
  const oldHash = payloadText(moved, 'old', 'target', 'hash');
  if (oldHash !== undefined && !isFullCommitId(oldHash, { anyCase: true }))
    throw invalidPayload('push.changes.old.target.hash', 'must be a commit id');
  const repository = payloadField(payload, 'repository');
  const fullName = payloadText(repository, 'full_name');
  const cloneUrl = cloneUrlOf(repository, 'repository');
  return {
    kind: 'push',
    push: {
      cloneUrl,
      repo: fullName ?? cloneUrl,
      branch,
      before: oldHash ?? null,
      after,
      forge: target(fullName, after),
    },
  };
}

/**
 * A pull request (`pullrequest:created`, `pullrequest:updated`). Bitbucket keeps no ref for a
 * request and names its head by 12 characters: the job clones the source repository (the fork, for
 * a fork's request), fetches the source branch, resolves the head there, and analyzes from its
 * merge base with the destination branch.
 */
export function bitbucketPullRequest(payload: unknown, options: { readonly drafts: boolean }): PushOutcome {
  const request = payloadField(payload, 'pullrequest');
  const state = payloadText(request, 'state') ?? '';
  if (state !== 'OPEN') return { kind: 'ignored', reason: `pull request ${state.toLowerCase() || 'in no state'}` };
  if (payloadField(request, 'draft') === true && !options.drafts)
    return { kind: 'ignored', reason: 'draft pull request' };
  requestNumber(payloadField(request, 'id'), 'pullrequest.id');
  const head = payloadText(request, 'source', 'commit', 'hash');
  if (!head || !HEAD_PREFIX.test(head)) throw invalidPayload('pullrequest.source.commit.hash', 'must be a commit id');
  const sourceBranch = branchName(payloadText(request, 'source', 'branch', 'name'), 'pullrequest.source.branch.name');
  const destinationBranch = branchName(
    payloadText(request, 'destination', 'branch', 'name'),
    'pullrequest.destination.branch.name',
  );
  const source = payloadField(request, 'source', 'repository') ?? payloadField(payload, 'repository');
  const cloneUrl = cloneUrlOf(source, 'pullrequest.source.repository');
  const destination =
    payloadText(payload, 'repository', 'full_name') ?? payloadText(request, 'destination', 'repository', 'full_name');
  return {
    kind: 'push',
    push: {
      cloneUrl,
      repo: destination ?? cloneUrl,
      branch: destinationBranch,
      before: null,
      after: head.toLowerCase(),
      forge: target(destination, head.toLowerCase()),
      ref: `refs/heads/${sourceBranch}`,
    },
  };
}
