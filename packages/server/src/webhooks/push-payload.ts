import { HttpError } from '@cadence-detect/errors';
import type { ForgeTarget } from '@cadence-detect/plugin-sdk';

const ZERO = /^0+$/;

/** What a push asks for: which repository, which branch, which commits (docs/http-api.md, Webhooks). */
export interface PushRequest {
  readonly cloneUrl: string;
  readonly repo: string;
  readonly branch: string | null;
  readonly before: string | null;
  readonly after: string;
  /** Where the verdict is reported: the pushed head on the forge that sent the push. */
  readonly forge: ForgeTarget | null;
  /** A pull or merge request: its head's ref in the base repository (the range starts at the merge base). */
  readonly ref?: string;
  /** A push of exactly one new commit onto a branch: the shape a squash merge has (the forge API says whether it is one). */
  readonly squashCandidate?: boolean;
}

/** One pushed commit on top of an existing branch head, as the payload's `commits` list says. */
function singleCommitPush(payload: unknown, before: string | null): boolean {
  const commits = field(payload, 'commits');
  return before !== null && Array.isArray(commits) && commits.length === 1;
}

export type PushOutcome = { kind: 'push'; push: PushRequest } | { kind: 'ignored'; reason: string };

function field(payload: unknown, ...path: string[]): unknown {
  let value = payload;
  for (const key of path) {
    if (!value || typeof value !== 'object') return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

function text(payload: unknown, ...path: string[]): string | undefined {
  const value = field(payload, ...path);
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}

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
  return parts.length === 2 && GITHUB_OWNER.test(parts[0]!) && GITHUB_NAME.test(parts[1]!);
}

/**
 * GitLab's `path_with_namespace`: group/subgroup/.../project, each segment of letters, digits, `_`,
 * `-`, `.`, not starting with `-` and not ending with `.` (so never `.` or `..`).
 */
const GITLAB_SEGMENT = /^(?:[A-Za-z0-9_.][A-Za-z0-9_.-]{0,254}[A-Za-z0-9_-]|[A-Za-z0-9_])$/;

export function isGitlabPath(value: string): boolean {
  const parts = value.split('/');
  return parts.length >= 2 && parts.length <= 21 && parts.every((part) => GITLAB_SEGMENT.test(part));
}

function positiveInteger(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isSafeInteger(value) && value > 0 ? value : undefined;
}

/** Forges number requests with 32-bit integers: a larger number is no request of theirs (400 at intake, not a job that fails later). */
const MAX_REQUEST_NUMBER = 2 ** 31 - 1;

function requestNumber(value: unknown, name: string): number {
  const number = positiveInteger(value);
  if (!number) throw HttpError.invalidRequest(name, 'missing');
  if (number > MAX_REQUEST_NUMBER) throw HttpError.invalidRequest(name, `must be at most ${MAX_REQUEST_NUMBER}`);
  return number;
}

const COMMIT_ID = /^[0-9a-f]{40}([0-9a-f]{24})?$/i;

/** The shared part of GitHub and GitLab pushes: ref, before, after. */
function pushRange(payload: unknown): { branch: string | null; before: string | null; after: string } | { ignored: string } {
  const after = text(payload, 'after');
  if (!after || !COMMIT_ID.test(after)) throw HttpError.invalidRequest('after', 'must be a commit id');
  if (ZERO.test(after)) return { ignored: 'branch deleted' };
  const before = text(payload, 'before');
  if (before !== undefined && !COMMIT_ID.test(before)) throw HttpError.invalidRequest('before', 'must be a commit id');
  const ref = text(payload, 'ref') ?? '';
  const branch = ref.startsWith('refs/heads/') ? ref.slice('refs/heads/'.length) : null;
  if (ref.startsWith('refs/tags/')) return { ignored: 'tag push' };
  return { branch, before: before && !ZERO.test(before) ? before : null, after };
}

/** GitHub: `repository.clone_url`, else `repository.url`. */
export function githubPush(payload: unknown): PushOutcome {
  const range = pushRange(payload);
  if ('ignored' in range) return { kind: 'ignored', reason: range.ignored };
  const cloneUrl = text(payload, 'repository', 'clone_url') ?? text(payload, 'repository', 'url');
  if (!cloneUrl) throw HttpError.invalidRequest('repository.clone_url', 'missing');
  const fullName = text(payload, 'repository', 'full_name');
  const repo = fullName ?? cloneUrl;
  const installation = positiveInteger(field(payload, 'installation', 'id'));
  const forge: ForgeTarget | null = fullName && isGithubFullName(fullName)
    ? { forge: 'github', repository: fullName, sha: range.after, ...(installation ? { installation_id: installation } : {}) }
    : null;
  return { kind: 'push', push: { cloneUrl, repo, ...range, forge, squashCandidate: forge !== null && singleCommitPush(payload, range.before) } };
}

/** GitLab: `project.git_http_url`, else `repository.git_http_url`, else `project.web_url`. */
export function gitlabPush(payload: unknown): PushOutcome {
  const range = pushRange(payload);
  if ('ignored' in range) return { kind: 'ignored', reason: range.ignored };
  const cloneUrl = text(payload, 'project', 'git_http_url') ?? text(payload, 'repository', 'git_http_url') ?? text(payload, 'project', 'web_url');
  if (!cloneUrl) throw HttpError.invalidRequest('project.git_http_url', 'missing');
  const path = text(payload, 'project', 'path_with_namespace');
  const repo = path ?? cloneUrl;
  const projectId = positiveInteger(field(payload, 'project_id')) ?? positiveInteger(field(payload, 'project', 'id'));
  const forge: ForgeTarget | null = path && isGitlabPath(path) && projectId ? { forge: 'gitlab', repository: path, sha: range.after, project_id: projectId } : null;
  return { kind: 'push', push: { cloneUrl, repo, ...range, forge, squashCandidate: forge !== null && singleCommitPush(payload, range.before) } };
}

/** GitHub pull_request actions that change what the request holds. */
const PULL_REQUEST_ACTIONS = new Set(['opened', 'synchronize', 'reopened', 'ready_for_review']);

/**
 * GitHub `pull_request`: the request's own commits, fetched from the base repository as
 * refs/pull/N/head (a fork's commits need no fork URL), reported on the head commit.
 */
export function githubPullRequest(payload: unknown, options: { drafts: boolean }): PushOutcome {
  const action = text(payload, 'action') ?? '';
  if (!PULL_REQUEST_ACTIONS.has(action)) return { kind: 'ignored', reason: `pull_request action ${action || 'missing'}` };
  const number = requestNumber(field(payload, 'pull_request', 'number') ?? field(payload, 'number'), 'pull_request.number');
  if (text(payload, 'pull_request', 'state') === 'closed') return { kind: 'ignored', reason: 'pull request closed' };
  if (field(payload, 'pull_request', 'draft') === true && !options.drafts) return { kind: 'ignored', reason: 'draft pull request' };
  const head = text(payload, 'pull_request', 'head', 'sha');
  if (!head || !COMMIT_ID.test(head)) throw HttpError.invalidRequest('pull_request.head.sha', 'must be a commit id');
  const base = text(payload, 'pull_request', 'base', 'ref');
  if (!base) throw HttpError.invalidRequest('pull_request.base.ref', 'missing');
  const cloneUrl = text(payload, 'pull_request', 'base', 'repo', 'clone_url') ?? text(payload, 'repository', 'clone_url');
  if (!cloneUrl) throw HttpError.invalidRequest('repository.clone_url', 'missing');
  const fullName = text(payload, 'pull_request', 'base', 'repo', 'full_name') ?? text(payload, 'repository', 'full_name');
  const installation = positiveInteger(field(payload, 'installation', 'id'));
  const forge: ForgeTarget | null = fullName && isGithubFullName(fullName) ? { forge: 'github', repository: fullName, sha: head, ...(installation ? { installation_id: installation } : {}) } : null;
  return { kind: 'push', push: { cloneUrl, repo: fullName ?? cloneUrl, branch: base, before: null, after: head, forge, ref: `refs/pull/${number}/head` } };
}

const MERGE_REQUEST_ACTIONS = new Set(['open', 'update', 'reopen']);

/** GitLab `merge_request` hooks: the same, fetched as refs/merge-requests/N/head. */
export function gitlabMergeRequest(payload: unknown, options: { drafts: boolean }): PushOutcome {
  const action = text(payload, 'object_attributes', 'action') ?? '';
  if (!MERGE_REQUEST_ACTIONS.has(action)) return { kind: 'ignored', reason: `merge_request action ${action || 'missing'}` };
  if (text(payload, 'object_attributes', 'state') !== 'opened') return { kind: 'ignored', reason: 'merge request not open' };
  const draft = field(payload, 'object_attributes', 'draft') === true || field(payload, 'object_attributes', 'work_in_progress') === true;
  if (draft && !options.drafts) return { kind: 'ignored', reason: 'draft merge request' };
  const iid = requestNumber(field(payload, 'object_attributes', 'iid'), 'object_attributes.iid');
  const head = text(payload, 'object_attributes', 'last_commit', 'id');
  if (!head || !COMMIT_ID.test(head)) throw HttpError.invalidRequest('object_attributes.last_commit.id', 'must be a commit id');
  const target = text(payload, 'object_attributes', 'target_branch');
  if (!target) throw HttpError.invalidRequest('object_attributes.target_branch', 'missing');
  const cloneUrl = text(payload, 'project', 'git_http_url') ?? text(payload, 'object_attributes', 'target', 'git_http_url');
  if (!cloneUrl) throw HttpError.invalidRequest('project.git_http_url', 'missing');
  const path = text(payload, 'project', 'path_with_namespace');
  const projectId = positiveInteger(field(payload, 'project', 'id')) ?? positiveInteger(field(payload, 'object_attributes', 'target_project_id'));
  const forge: ForgeTarget | null = path && isGitlabPath(path) && projectId ? { forge: 'gitlab', repository: path, sha: head, project_id: projectId } : null;
  return { kind: 'push', push: { cloneUrl, repo: path ?? cloneUrl, branch: target, before: null, after: head, forge, ref: `refs/merge-requests/${iid}/head` } };
}
