import { CadenceError, type ListedRepository, errorMessage } from '@cadence-detect/plugin-sdk';
import { classify, gitlabClient } from './gitlab-client.js';
import type { GitlabCredentials } from './options.js';

const GROUP = /^[A-Za-z0-9_.][A-Za-z0-9_.-]*(?:\/[A-Za-z0-9_.][A-Za-z0-9_.-]*){0,19}$/;

interface GitlabProject {
  path_with_namespace: string;
  http_url_to_repo: string;
  archived?: boolean;
  forked_from_project?: unknown;
  visibility?: string;
}

/** A group's projects, its subgroups' included (`GET /groups/:id/projects?include_subgroups=true`, every page). */
export async function listGitlabRepositories(
  credentials: GitlabCredentials | null,
  group: string,
  signal: AbortSignal,
): Promise<ListedRepository[]> {
  if (!GROUP.test(group) || group.split('/').some((part) => part === '.' || part === '..'))
    throw new CadenceError('ERR_INVALID_SOURCE', { message: `Not a GitLab group path: ${JSON.stringify(group)}` });
  if (!credentials)
    throw new CadenceError('ERR_FORGE_AUTH', {
      message: 'Listing a GitLab group needs a token: set forges.gitlab.token (CADENCE_GITLAB_TOKEN)',
    });
  const api = gitlabClient(credentials, { timeoutMs: 30_000 });
  try {
    signal.throwIfAborted();
    const projects = (await api.Groups.allProjects(group, {
      includeSubgroups: true,
      perPage: 100,
    })) as unknown as GitlabProject[];
    return projects.map((p) => ({
      repository: p.path_with_namespace,
      cloneUrl: p.http_url_to_repo,
      archived: p.archived === true,
      fork: p.forked_from_project !== undefined && p.forked_from_project !== null,
      private: p.visibility !== 'public',
    }));
  } catch (error) {
    if (signal.aborted) throw signal.reason;
    const { code } = classify(error);
    throw new CadenceError(code === 'ERR_REPORTER_FAILED' ? 'ERR_FORGE_UNAVAILABLE' : (code as 'ERR_FORGE_AUTH'), {
      message: `GitLab would not list ${group}'s projects: ${errorMessage(error)}`.slice(0, 300),
    });
  }
}
