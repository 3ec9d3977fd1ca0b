import { definePlugin, tapForgeReporter } from '@cadence-detect/plugin-sdk';
import { GithubReporter } from './github-reporter.js';
import { GITHUB_REPORT_OPTIONS, type GithubReportOptions } from './options.js';

export { GITHUB_REPORT_OPTIONS, type GithubReportOptions, type FailOn } from './options.js';
export { verdictOf, checkSummary, failsPolicy, escapeMarkdown } from './verdict.js';
export { forgeErrorCode } from './github-client.js';

/**
 * The verdict back on GitHub: a commit status (`pending` while the job runs, then success, failure
 * or error) with a token, or a check run (in_progress, then completed with a summary and
 * annotations) with a GitHub App. Only jobs from GitHub webhooks are reported. Never fails a job,
 * and the job's `complete` event does not wait for GitHub: each call's outcome is recorded on the job.
 */
export default definePlugin({
  name: 'report-github',
  meta: {
    description: 'Reports each GitHub push job\u2019s verdict as a commit status or check run.',
    options: GITHUB_REPORT_OPTIONS,
    docsUrl: 'https://github.com/cadence/cadence/blob/main/docs/forges.md',
  },
  apply(hooks, environment) {
    const options = environment.options as unknown as GithubReportOptions;
    tapForgeReporter(hooks, 'report-github', 'github', new GithubReporter(options, environment.logger));
  },
});
