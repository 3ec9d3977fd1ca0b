import { type PluginLogger, type FailOn } from '@cadence-detect/plugin-sdk';
import {
  forgeTargetOf,
  REPORT_COMMENT_MARKER,
  reportCommentBody,
  statusReporter,
  type ForgeReporter,
} from '@cadence-detect/forge-kit';
import {
  bitbucketRequest,
  nextPath,
  repoPath,
  type BitbucketCredentials,
  type BitbucketPage,
} from './bitbucket-client.js';

const STATUS_KEY = 'cadence';
/** Comments looked through for Cadence's own, at most (20 pages of 100). */
const MAX_COMMENT_PAGES = 20;
/** Bitbucket keeps a comment's raw text up to about 32 KB; the summary is cut to fit. */
const MAX_COMMENT_CHARS = 30_000;

/**
 * Reports a job's verdict on Bitbucket Cloud (the SDK's `statusReporter`): a build status (key
 * `cadence`: `INPROGRESS`, then `SUCCESSFUL` or `FAILED`; `STOPPED` for a cancelled job) and, with
 * `pull_request_comment`, one comment on the commit's open pull request, edited on each push. A
 * build status must link somewhere: without `server.public_url` (no job URL) none is posted, and
 * each job records why.
 */
export function bitbucketReporter(
  credentials: BitbucketCredentials,
  settings: { readonly failOn: FailOn; readonly comment: boolean },
  logger: PluginLogger,
): ForgeReporter {
  return statusReporter({
    reporter: 'report-bitbucket',
    forge: 'bitbucket',
    logger,
    failOn: settings.failOn,
    states: { pending: 'INPROGRESS', success: 'SUCCESSFUL', failure: 'FAILED', error: 'FAILED', cancelled: 'STOPPED' },
    statusKind: 'build-status',
    cannotPost: (job) =>
      job.url ? null : 'Bitbucket build statuses link to the job: set server.public_url (CADENCE_PUBLIC_URL)',
    postStatus: (job, state, description, signal) => {
      const { repository, sha } = forgeTargetOf(job);
      return bitbucketRequest(
        credentials,
        'POST',
        `/repositories/${repoPath(repository)}/commit/${encodeURIComponent(sha)}/statuses/build`,
        signal,
        { key: STATUS_KEY, state, name: 'Cadence', description, url: job.url },
      );
    },
    ...(settings.comment
      ? {
          comment: {
            kind: 'pull-request-comment',
            failedState: 'comment',
            async post(job, result, signal, target) {
              const { repository, sha } = forgeTargetOf(job);
              const repo = `/repositories/${repoPath(repository)}`;
              const requests = await bitbucketRequest<BitbucketPage<{ id: number; state?: string }>>(
                credentials,
                'GET',
                `${repo}/commit/${encodeURIComponent(sha)}/pullrequests?pagelen=50`,
                signal,
              );
              const open = requests.values.find((r) => r.state === undefined || r.state === 'OPEN');
              if (!open) return 'none';
              target(`${repository}#${open.id}`);
              const content = { raw: reportCommentBody(result, sha, job.url, MAX_COMMENT_CHARS) };
              const comments = `${repo}/pullrequests/${open.id}/comments`;
              const mine = await findComment(credentials, `${comments}?pagelen=100`, signal);
              if (mine !== null) await bitbucketRequest(credentials, 'PUT', `${comments}/${mine}`, signal, { content });
              else await bitbucketRequest(credentials, 'POST', comments, signal, { content });
              return mine !== null ? 'updated' : 'created';
            },
          },
        }
      : {}),
  });
}

/** Cadence's comment on the request (its marker), following `next` within the API only. */
async function findComment(
  credentials: BitbucketCredentials,
  first: string,
  signal: AbortSignal,
): Promise<number | null> {
  let path: string | null = first;
  for (let page = 0; path !== null && page < MAX_COMMENT_PAGES; page++) {
    const comments: BitbucketPage<{ id: number; content?: { raw?: string } }> = await bitbucketRequest(
      credentials,
      'GET',
      path,
      signal,
    );
    const mine = comments.values.find((c) => c.content?.raw?.startsWith(REPORT_COMMENT_MARKER));
    if (mine) return mine.id;
    path = nextPath(credentials, comments.next);
  }
  return null;
}
