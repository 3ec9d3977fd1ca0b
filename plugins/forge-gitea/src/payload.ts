import {
  invalidPayload,
  payloadCommit,
  payloadField,
  payloadText,
  pushRange,
  requestNumber,
  type ForgeTarget,
  type PushFields,
} from '@cadence-detect/plugin-sdk';

/** `owner/name` as Gitea writes it: letters, digits, `-`, `_`, `.`, never `.` or `..` alone. */
const SEGMENT = /^(?!\.{1,2}$)[A-Za-z0-9_.-]{1,100}$/;

function target(fullName: string | undefined, sha: string): ForgeTarget | null {
  const parts = fullName?.split('/') ?? [];
  return parts.length === 2 && parts.every((part) => SEGMENT.test(part))
    ? { forge: 'gitea', repository: fullName!, sha }
    : null;
}

export type PushOutcome = { kind: 'push'; push: PushFields } | { kind: 'ignored'; reason: string };

/** A push (Gitea's `push` event): its repository's `clone_url`, the range of `before` and `after`. */
export function giteaPush(payload: unknown): PushOutcome {
  const range = pushRange(payload);
  if ('ignored' in range) return { kind: 'ignored', reason: range.ignored };
  const cloneUrl = payloadText(payload, 'repository', 'clone_url');
  if (!cloneUrl) throw invalidPayload('repository.clone_url', 'missing');
  const fullName = payloadText(payload, 'repository', 'full_name');
  return {
    kind: 'push',
    push: { cloneUrl, repo: fullName ?? cloneUrl, ...range, forge: target(fullName, range.after) },
  };
}

/** Gitea's actions that bring a request's new head: opened, reopened, and `synchronized` (new commits). */
const PULL_REQUEST_ACTIONS = new Set(['opened', 'reopened', 'synchronized']);

/** A pull request: its own commits, fetched as refs/pull/N/head from the base repository. */
export function giteaPullRequest(payload: unknown, options: { readonly drafts: boolean }): PushOutcome {
  const action = payloadText(payload, 'action') ?? '';
  if (!PULL_REQUEST_ACTIONS.has(action))
    return { kind: 'ignored', reason: `pull_request action ${action || 'missing'}` };
  if (payloadText(payload, 'pull_request', 'state') === 'closed')
    return { kind: 'ignored', reason: 'pull request closed' };
  if (payloadField(payload, 'pull_request', 'draft') === true && !options.drafts)
    return { kind: 'ignored', reason: 'draft pull request' };
  const number = requestNumber(
    payloadField(payload, 'pull_request', 'number') ?? payloadField(payload, 'number'),
    'pull_request.number',
  );
  const head = payloadCommit(payload, 'pull_request.head.sha', 'pull_request', 'head', 'sha');
  const base = payloadText(payload, 'pull_request', 'base', 'ref');
  if (!base) throw invalidPayload('pull_request.base.ref', 'missing');
  const cloneUrl =
    payloadText(payload, 'pull_request', 'base', 'repo', 'clone_url') ??
    payloadText(payload, 'repository', 'clone_url');
  if (!cloneUrl) throw invalidPayload('repository.clone_url', 'missing');
  const fullName =
    payloadText(payload, 'pull_request', 'base', 'repo', 'full_name') ??
    payloadText(payload, 'repository', 'full_name');
  return {
    kind: 'push',
    push: {
      cloneUrl,
      repo: fullName ?? cloneUrl,
      branch: base,
      before: null,
      after: head,
      forge: target(fullName, head),
      ref: `refs/pull/${number}/head`,
    },
  };
}
