import { type ForgeTarget } from '@cadence-detect/plugin-sdk';
import {
  invalidPayload,
  isSingleCommitPush,
  payloadCommit,
  payloadField,
  payloadText,
  positiveInteger,
  pushRange,
  requestNumber,
  type PushOrIgnored,
} from '@cadence-detect/forge-kit';

export type PushOutcome = PushOrIgnored;

/**
 * GitLab's `path_with_namespace`: group/subgroup/.../project, each segment of letters, digits, `_`,
 * `-`, `.`, not starting with `-` and not ending with `.` (so never `.` or `..`).
 */
const GITLAB_SEGMENT = /^(?:[A-Za-z0-9_.][A-Za-z0-9_.-]{0,254}[A-Za-z0-9_-]|[A-Za-z0-9_])$/;

export function isGitlabPath(value: string): boolean {
  const parts = value.split('/');
  return parts.length >= 2 && parts.length <= 21 && parts.every((part) => GITLAB_SEGMENT.test(part));
}

function target(path: string | undefined, projectId: number | undefined, sha: string): ForgeTarget | null {
  return path && isGitlabPath(path) && projectId
    ? { forge: 'gitlab', repository: path, sha, project_id: projectId }
    : null;
}

/** A push: `project.git_http_url`, else `repository.git_http_url`, else `project.web_url`. */
export function gitlabPush(payload: unknown): PushOutcome {
  const range = pushRange(payload);
  if ('ignored' in range) return { kind: 'ignored', reason: range.ignored };
  const cloneUrl =
    payloadText(payload, 'project', 'git_http_url') ??
    payloadText(payload, 'repository', 'git_http_url') ??
    payloadText(payload, 'project', 'web_url');
  if (!cloneUrl) throw invalidPayload('project.git_http_url', 'missing');
  const path = payloadText(payload, 'project', 'path_with_namespace');
  const projectId =
    positiveInteger(payloadField(payload, 'project_id')) ?? positiveInteger(payloadField(payload, 'project', 'id'));
  const forge = target(path, projectId, range.after);
  return {
    kind: 'push',
    push: {
      cloneUrl,
      repo: path ?? cloneUrl,
      ...range,
      forge,
      squashCandidate: forge !== null && isSingleCommitPush(payload, range),
    },
  };
}

const MERGE_REQUEST_ACTIONS = new Set(['open', 'update', 'reopen']);

/** `merge_request` hooks: the request's own commits, fetched as refs/merge-requests/N/head, reported on its head. */
export function gitlabMergeRequest(payload: unknown, options: { drafts: boolean }): PushOutcome {
  const action = payloadText(payload, 'object_attributes', 'action') ?? '';
  if (!MERGE_REQUEST_ACTIONS.has(action))
    return { kind: 'ignored', reason: `merge_request action ${action || 'missing'}` };
  if (payloadText(payload, 'object_attributes', 'state') !== 'opened')
    return { kind: 'ignored', reason: 'merge request not open' };
  const draft =
    payloadField(payload, 'object_attributes', 'draft') === true ||
    payloadField(payload, 'object_attributes', 'work_in_progress') === true;
  if (draft && !options.drafts) return { kind: 'ignored', reason: 'draft merge request' };
  const iid = requestNumber(payloadField(payload, 'object_attributes', 'iid'), 'object_attributes.iid');
  const head = payloadCommit(payload, 'object_attributes.last_commit.id', 'object_attributes', 'last_commit', 'id');
  const targetBranch = payloadText(payload, 'object_attributes', 'target_branch');
  if (!targetBranch) throw invalidPayload('object_attributes.target_branch', 'missing');
  const cloneUrl =
    payloadText(payload, 'project', 'git_http_url') ??
    payloadText(payload, 'object_attributes', 'target', 'git_http_url');
  if (!cloneUrl) throw invalidPayload('project.git_http_url', 'missing');
  const path = payloadText(payload, 'project', 'path_with_namespace');
  const projectId =
    positiveInteger(payloadField(payload, 'project', 'id')) ??
    positiveInteger(payloadField(payload, 'object_attributes', 'target_project_id'));
  return {
    kind: 'push',
    push: {
      cloneUrl,
      repo: path ?? cloneUrl,
      branch: targetBranch,
      before: null,
      after: head,
      forge: target(path, projectId, head),
      ref: `refs/merge-requests/${iid}/head`,
    },
  };
}
