import { type ForgeTarget } from '@cadence-detect/plugin-sdk';
import {
  invalidPayload,
  isSingleCommitPush,
  payloadField,
  payloadText,
  positiveInteger,
  pushRange,
  pullRequestRefPush,
  type PushOrIgnored,
} from '@cadence-detect/forge-kit';

export type PushOutcome = PushOrIgnored;

/**
 * GitHub's `owner/name` grammar: an account of letters, digits, `-` (and `_`, for managed users),
 * starting with a letter or digit; a repository name of letters, digits, `.`, `_`, `-` that is not
 * `.` or `..`. A payload's `../..` would otherwise send forge calls, token and all, outside
 * `/repos/` (a client encodes `/` in a parameter, never a dot segment). Anything else is not reported on.
 */
const GITHUB_OWNER = /^[A-Za-z0-9][A-Za-z0-9_-]{0,38}$/;
const GITHUB_NAME = /^(?!\.{1,2}$)[A-Za-z0-9._-]{1,100}$/;

export function isGithubFullName(value: string): boolean {
  const parts = value.split('/');
  const [owner = '', name = ''] = parts;
  return parts.length === 2 && GITHUB_OWNER.test(owner) && GITHUB_NAME.test(name);
}

function target(fullName: string | undefined, sha: string, payload: unknown): ForgeTarget | null {
  if (!fullName || !isGithubFullName(fullName)) return null;
  const installation = positiveInteger(payloadField(payload, 'installation', 'id'));
  return { forge: 'github', repository: fullName, sha, ...(installation ? { installation_id: installation } : {}) };
}

/** A push: `repository.clone_url`, else `repository.url`. */
export function githubPush(payload: unknown): PushOutcome {
  const range = pushRange(payload);
  if ('ignored' in range) return { kind: 'ignored', reason: range.ignored };
  const cloneUrl = payloadText(payload, 'repository', 'clone_url') ?? payloadText(payload, 'repository', 'url');
  if (!cloneUrl) throw invalidPayload('repository.clone_url', 'missing');
  const fullName = payloadText(payload, 'repository', 'full_name');
  const forge = target(fullName, range.after, payload);
  return {
    kind: 'push',
    push: {
      cloneUrl,
      repo: fullName ?? cloneUrl,
      ...range,
      forge,
      squashCandidate: forge !== null && isSingleCommitPush(payload, range),
    },
  };
}

/** pull_request actions that change what the request holds. */
const PULL_REQUEST_ACTIONS = new Set(['opened', 'synchronize', 'reopened', 'ready_for_review']);

/**
 * `pull_request`: the request's own commits, fetched from the base repository as
 * refs/pull/N/head (a fork's commits need no fork URL), reported on the head commit.
 */
export function githubPullRequest(payload: unknown, options: { drafts: boolean }): PushOutcome {
  return pullRequestRefPush(payload, {
    actions: PULL_REQUEST_ACTIONS,
    drafts: options.drafts,
    target: (fullName, head) => target(fullName, head, payload),
  });
}
