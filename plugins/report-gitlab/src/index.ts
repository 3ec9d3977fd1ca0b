import { definePlugin, tapForgeReporter } from '@cadence-detect/plugin-sdk';
import { GitlabReporter } from './gitlab-reporter.js';
import { GITLAB_REPORT_OPTIONS, type GitlabReportOptions } from './options.js';

export { GITLAB_REPORT_OPTIONS, type GitlabReportOptions } from './options.js';
export { noteBody, statusDescription, failsPolicy, NOTE_MARKER } from './verdict.js';

/**
 * The verdict back on GitLab: a commit status (`running` while the job runs, then `success` or
 * `failed`) and, optionally, one merge request note kept up to date. Only jobs from GitLab webhooks
 * are reported. Never fails a job; the `complete` event does not wait for GitLab.
 */
export default definePlugin({
  name: 'report-gitlab',
  meta: {
    description: 'Reports each GitLab push job\u2019s verdict as a commit status and, optionally, a merge request note.',
    options: GITLAB_REPORT_OPTIONS,
    docsUrl: 'https://github.com/cadence/cadence/blob/main/docs/forges.md',
  },
  apply(hooks, environment) {
    tapForgeReporter(hooks, 'report-gitlab', 'gitlab', new GitlabReporter(environment.options as unknown as GitlabReportOptions, environment.logger));
  },
});
