import { createHmac, createSecretKey, type KeyObject, timingSafeEqual } from 'node:crypto';
import { HttpError } from '@cadence-detect/errors';
import { isFullCommitId } from '@cadence-detect/plugin-sdk';
import type { WebhookOutcome, ForgeTarget } from '@cadence-detect/plugin-sdk';

/**
 * What forge intakes share: constant-time checks, the `X-Hub-Signature-256` HMAC that
 * GitHub, GitLab, Gitea and others sign with, payload readers that never throw on a wrong shape, and
 * the refusals the server answers with the contract's error body (docs/http-api.md, Webhooks).
 * @since 1.6
 */

/**
 * Compares secrets in constant time (timingSafeEqual over equal-length buffers). A different length
 * answers false at once, never throws: what leaks is only the length of the expected value, which
 * for signatures is public (sha256= and 64 hex digits).
 */
export function constantTimeEqual(presented: string, expected: string): boolean {
  const a = Buffer.from(presented);
  const b = Buffer.from(expected);
  if (a.length !== b.length) return false;
  return timingSafeEqual(a, b);
}

/** A secret as an HMAC key, made once: createHmac then skips converting the string on every request. */
export function hubSignatureKey(secret: string): KeyObject {
  return createSecretKey(Buffer.from(secret, 'utf8'));
}

/** `X-Hub-Signature-256: sha256=<hex HMAC-SHA256 of the raw body>`; any malformed value is simply false. */
export function verifyHubSignature(
  rawBody: string | Buffer,
  header: string | undefined,
  secret: string | KeyObject,
): boolean {
  if (!header) return false;
  const expected = `sha256=${createHmac('sha256', secret).update(rawBody).digest('hex')}`;
  return constantTimeEqual(header.trim().toLowerCase(), expected);
}

/**
 * Refuses a delivery whose `header` does not carry the HMAC-SHA256 of its body under the webhook
 * secret (compared in constant time): 401 `invalid_signature`, saying whether the header is missing
 * (a webhook set up without its secret on `forge`) or does not match. `bareHex`: the header holds
 * the hex alone, without `sha256=` (Gitea, Forgejo).
 * @since 1.13
 */
export function requireHubSignature(
  delivery: { header(name: string): string; readonly body: Buffer },
  secret: { readonly key: KeyObject },
  settings: { readonly header: string; readonly forge: string; readonly bareHex?: boolean },
): void {
  const value = delivery.header(settings.header.toLowerCase()).trim();
  if (!value)
    throw refuseDelivery(
      401,
      'invalid_signature',
      `No ${settings.header} header: set the webhook\u2019s secret on ${settings.forge} to the server\u2019s webhook secret (CADENCE_WEBHOOK_SECRET)`,
    );
  if (!verifyHubSignature(delivery.body, settings.bareHex ? `sha256=${value}` : value, secret.key))
    throw refuseDelivery(
      401,
      'invalid_signature',
      `Webhook signature verification failed: the ${settings.header} header does not match the body signed with the server\u2019s webhook secret`,
    );
}

/** A delivery that does not prove it comes from the forge: 401 `invalid_signature` or 403 `invalid_token`. */
export function refuseDelivery(
  status: 401 | 403,
  error: 'invalid_signature' | 'invalid_token',
  message: string,
): Error {
  return new HttpError(status, error, message);
}

/** A payload field that is missing or wrong: 400 `invalid_request` naming the field (at intake, not a job that fails later). */
export function invalidPayload(field: string, reason: string): Error {
  return HttpError.invalidRequest(field, reason);
}

/** The value at `path` in a parsed payload, or undefined wherever the shape differs. */
export function payloadField(payload: unknown, ...path: string[]): unknown {
  let value = payload;
  for (const key of path) {
    if (!value || typeof value !== 'object') return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

/** A non-empty string at `path`, or undefined. */
export function payloadText(payload: unknown, ...path: string[]): string | undefined {
  const value = payloadField(payload, ...path);
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}

/** A positive safe integer (an installation, a project id), or undefined. */
export function positiveInteger(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isSafeInteger(value) && value > 0 ? value : undefined;
}

/** Forges number requests with 32-bit integers: a larger number is no request of theirs (400 at intake, not a job that fails later). */
const MAX_REQUEST_NUMBER = 2 ** 31 - 1;

/** A pull or merge request's number at `field`: 400 when missing or above 2^31-1. */
export function requestNumber(value: unknown, field: string): number {
  const number = positiveInteger(value);
  if (!number) throw invalidPayload(field, 'missing');
  if (number > MAX_REQUEST_NUMBER) throw invalidPayload(field, `must be at most ${MAX_REQUEST_NUMBER}`);
  return number;
}

/** A full commit id from a payload (any case), or 400 naming `field`. */
export function payloadCommit(payload: unknown, field: string, ...path: string[]): string {
  const value = payloadText(payload, ...path);
  if (!value || !isFullCommitId(value, { anyCase: true })) throw invalidPayload(field, 'must be a commit id');
  return value;
}

const ZERO = /^0+$/;

/** What a push moved: the branch (null for another kind of ref), the old head (null for a new branch) and the new one. */
export interface PushRange {
  readonly branch: string | null;
  readonly before: string | null;
  readonly after: string;
}

/**
 * The `ref`, `before` and `after` of a push, as GitHub, GitLab and Gitea send them: a tag push and a
 * deleted branch (an all-zero `after`) ask for nothing; an all-zero `before` is a new branch.
 */
export function pushRange(payload: unknown): PushRange | { readonly ignored: string } {
  const after = payloadCommit(payload, 'after', 'after');
  if (ZERO.test(after)) return { ignored: 'branch deleted' };
  const before = payloadText(payload, 'before');
  if (before !== undefined && !isFullCommitId(before, { anyCase: true }))
    throw invalidPayload('before', 'must be a commit id');
  const ref = payloadText(payload, 'ref') ?? '';
  const branch = ref.startsWith('refs/heads/') ? ref.slice('refs/heads/'.length) : null;
  if (ref.startsWith('refs/tags/')) return { ignored: 'tag push' };
  return { branch, before: before && !ZERO.test(before) ? before : null, after };
}

/** One pushed commit on top of an existing branch head, as the payload's `commits` list says: the shape a squash merge has. */
export function isSingleCommitPush(payload: unknown, range: PushRange): boolean {
  const commits = payloadField(payload, 'commits');
  return range.before !== null && Array.isArray(commits) && commits.length === 1;
}

/** What a push or a pull/merge request event names, as a forge's payload reader returns it. */
export interface PushFields {
  readonly cloneUrl: string;
  /** The repository's name as the forge writes it, for a clone URL that gives none. */
  readonly repo: string;
  readonly branch: string | null;
  readonly before: string | null;
  readonly after: string;
  /** Where the verdict is reported: the pushed head on the forge that sent the push. */
  readonly forge: ForgeTarget | null;
  /** A pull or merge request: its head's ref in the base repository (the range starts at the merge base). */
  readonly ref?: string;
  /** A push of exactly one new commit onto a branch: the shape a squash merge has (the forge's API says whether it is one). */
  readonly squashCandidate?: boolean;
}

/** A push's or a request's fields as the outcome the server makes a job of, under the forge's delivery id. */
export function pushOutcome(push: PushFields, delivery: string): WebhookOutcome {
  return {
    kind: 'push',
    push: {
      repo: push.repo,
      forge: push.forge,
      delivery,
      request: {
        kind: 'repository',
        url: push.cloneUrl,
        branch: push.branch,
        range: { before: push.before, after: push.after },
        ...(push.ref ? { ref: push.ref } : {}),
        ...(push.squashCandidate ? { squash_candidate: true } : {}),
      },
    },
  };
}

/**
 * What a forge's payload reader returns: the fields of a push or request to analyze, or why it asks for nothing.
 * @since 1.13
 */
export type PushOrIgnored = { kind: 'push'; push: PushFields } | { kind: 'ignored'; reason: string };

/**
 * A `pull_request` event as GitHub, Gitea and Forgejo send it: `action` among `actions`, the
 * request's `number`, `state`, `draft`, `head.sha`, `base.ref` and base repository. The request's
 * own commits are fetched from the base repository as `refs/pull/N/head` (a fork's commits need no
 * fork URL); `target` says where the verdict goes. A closed request, another action and a draft
 * (unless `drafts`) ask for nothing; a malformed number, head or base is refused with 400.
 * @since 1.13
 */
export function pullRequestRefPush(
  payload: unknown,
  settings: {
    readonly actions: ReadonlySet<string>;
    readonly drafts: boolean;
    readonly target: (fullName: string | undefined, head: string) => ForgeTarget | null;
  },
): PushOrIgnored {
  const action = payloadText(payload, 'action') ?? '';
  if (!settings.actions.has(action)) return { kind: 'ignored', reason: `pull_request action ${action || 'missing'}` };
  const number = requestNumber(
    payloadField(payload, 'pull_request', 'number') ?? payloadField(payload, 'number'),
    'pull_request.number',
  );
  if (payloadText(payload, 'pull_request', 'state') === 'closed')
    return { kind: 'ignored', reason: 'pull request closed' };
  if (payloadField(payload, 'pull_request', 'draft') === true && !settings.drafts)
    return { kind: 'ignored', reason: 'draft pull request' };
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
      forge: settings.target(fullName, head),
      ref: `refs/pull/${number}/head`,
    },
  };
}
