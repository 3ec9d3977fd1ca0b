import { type JobInfo, type PluginLogger } from '@cadence-detect/plugin-sdk';
import { forgeTargetOf, statusReporter, type ForgeReporter } from '@cadence-detect/forge-kit';
import { classify, gitlabClient, type GitlabApi } from './gitlab-client.js';
import type { GitlabCredentials } from './options.js';
import { NOTE_MARKER, noteBody, type FailOn } from './verdict.js';

const STATUS_NAME = 'cadence';

/**
 * Reports a job's verdict on GitLab (the SDK's `statusReporter`, reading Gitbeaker's errors): a
 * commit status (`running`, then `success` or `failed`; `canceled` for a cancelled job) and, with
 * `merge_request_note`, one note on the commit's open merge request, updated on each push rather
 * than added again. Jobs whose project id is unknown are not reported.
 */
/** A job's project id: `accepts` lets only jobs that carry one reach a call. */
function projectOf(job: JobInfo): number {
  const id = forgeTargetOf(job).project_id;
  if (id === undefined) throw new Error(`job ${job.id} names no GitLab project`);
  return id;
}

export function gitlabReporter(
  credentials: GitlabCredentials,
  settings: { readonly failOn: FailOn; readonly mergeRequestNote: boolean },
  logger: PluginLogger,
): ForgeReporter {
  // One client per call, its timeout the job's time left.
  const api = (job: JobInfo): GitlabApi =>
    gitlabClient(credentials, { timeoutMs: Math.max(1000, job.deadline - Date.now()) });
  return statusReporter({
    reporter: 'report-gitlab',
    forge: 'gitlab',
    logger,
    failOn: settings.failOn,
    states: { pending: 'running', success: 'success', failure: 'failed', error: 'failed', cancelled: 'canceled' },
    accepts: (job) => job.forge?.project_id !== undefined,
    classify,
    postStatus: (job, state, description) =>
      api(job).Commits.editStatus(projectOf(job), forgeTargetOf(job).sha, state as 'running', {
        name: STATUS_NAME,
        description,
        ...(job.url ? { targetUrl: job.url } : {}),
      }),
    ...(settings.mergeRequestNote
      ? {
          comment: {
            kind: 'merge-request-note',
            failedState: 'note',
            async post(job, result, _signal, target) {
              const { sha, repository } = forgeTargetOf(job);
              const projectId = projectOf(job);
              const client = api(job);
              const requests = (await client.Commits.allMergeRequests(projectId, sha)) as {
                iid: number;
                state: string;
              }[];
              const open = requests.find((r) => r.state === 'opened');
              if (!open) return 'none';
              target(`${repository}!${open.iid}`);
              const body = noteBody(result, sha, job.url);
              const notes = (await client.MergeRequestNotes.all(projectId, open.iid, {
                perPage: 100,
                maxPages: 20,
              })) as { id: number; body: string }[];
              const mine = notes.find((n) => typeof n.body === 'string' && n.body.startsWith(NOTE_MARKER));
              if (mine) await client.MergeRequestNotes.edit(projectId, open.iid, mine.id, { body });
              else await client.MergeRequestNotes.create(projectId, open.iid, body);
              return mine ? 'updated' : 'created';
            },
          },
        }
      : {}),
  });
}
