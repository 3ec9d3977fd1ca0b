import { type ForgeTarget } from '@cadence-detect/plugin-sdk';
import {
  invalidPayload,
  payloadText,
  pushRange,
  pullRequestRefPush,
  type PushOrIgnored,
} from '@cadence-detect/forge-kit';

/** `owner/name` as Gitea writes it: letters, digits, `-`, `_`, `.`, never `.` or `..` alone. */
const SEGMENT = /^(?!\.{1,2}$)[A-Za-z0-9_.-]{1,100}$/;

function target(fullName: string | undefined, sha: string): ForgeTarget | null {
  const parts = fullName?.split('/') ?? [];
  return fullName && parts.length === 2 && parts.every((part) => SEGMENT.test(part))
    ? { forge: 'gitea', repository: fullName, sha }
    : null;
}

export type PushOutcome = PushOrIgnored;

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
  return pullRequestRefPush(payload, { actions: PULL_REQUEST_ACTIONS, drafts: options.drafts, target });
}
