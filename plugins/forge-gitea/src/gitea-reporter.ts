import { type PluginLogger, type FailOn } from '@cadence-detect/plugin-sdk';
import {
  forgeTargetOf,
  ForgeHttpError,
  REPORT_COMMENT_MARKER,
  reportCommentBody,
  statusReporter,
  type ForgeReporter,
} from '@cadence-detect/forge-kit';
import { giteaRequest, repoPath, type GiteaCredentials } from './gitea-client.js';

const CONTEXT = 'cadence';

/**
 * Reports a job's verdict on Gitea or Forgejo (the SDK's `statusReporter`): a commit status
 * (context `cadence`: `pending`, then `success` or `failure`; `error` when the job fails) and, with
 * `pull_request_comment`, one comment on the commit's open pull request, edited on each push rather
 * than added again.
 */
export function giteaReporter(
  credentials: GiteaCredentials,
  settings: { readonly failOn: FailOn; readonly comment: boolean },
  logger: PluginLogger,
): ForgeReporter {
  return statusReporter({
    reporter: 'report-gitea',
    forge: 'gitea',
    logger,
    failOn: settings.failOn,
    states: { pending: 'pending', success: 'success', failure: 'failure', error: 'error' },
    postStatus: (job, state, description, signal) => {
      const { repository, sha } = forgeTargetOf(job);
      return giteaRequest(credentials, 'POST', `/repos/${repoPath(repository)}/statuses/${sha}`, signal, {
        state,
        context: CONTEXT,
        description,
        ...(job.url ? { target_url: job.url } : {}),
      });
    },
    ...(settings.comment
      ? {
          comment: {
            kind: 'pull-request-comment',
            failedState: 'comment',
            async post(job, result, signal, target) {
              const { repository, sha } = forgeTargetOf(job);
              const repo = `/repos/${repoPath(repository)}`;
              let request: { number: number; state: string };
              try {
                request = await giteaRequest(credentials, 'GET', `${repo}/commits/${sha}/pull`, signal);
              } catch (error) {
                // No pull request holds the commit: nothing to comment on.
                if (error instanceof ForgeHttpError && error.status === 404) return 'none';
                throw error;
              }
              if (request.state !== 'open') return 'none';
              target(`${repository}#${request.number}`);
              const body = reportCommentBody(result, sha, job.url);
              const mine = await findComment(credentials, `${repo}/issues/${request.number}/comments`, signal);
              if (mine !== null)
                await giteaRequest(credentials, 'PATCH', `${repo}/issues/comments/${mine}`, signal, { body });
              else
                await giteaRequest(credentials, 'POST', `${repo}/issues/${request.number}/comments`, signal, { body });
              return mine !== null ? 'updated' : 'created';
            },
          },
        }
      : {}),
  });
}

/** Cadence's comment on the request (its marker), paging through at most 20 pages of 50. */
async function findComment(credentials: GiteaCredentials, path: string, signal: AbortSignal): Promise<number | null> {
  for (let page = 1; page <= 20; page++) {
    const comments = await giteaRequest<{ id: number; body: string }[]>(
      credentials,
      'GET',
      `${path}?limit=50&page=${page}`,
      signal,
    );
    const mine = comments.find((c) => typeof c.body === 'string' && c.body.startsWith(REPORT_COMMENT_MARKER));
    if (mine) return mine.id;
    if (comments.length < 50) return null;
  }
  return null;
}
