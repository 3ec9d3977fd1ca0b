import { definePlugin, forgeGitHost } from '@cadence-detect/plugin-sdk';
import { lazyForgeReporter, tapForgeReporter, tapSquashLookup } from '@cadence-detect/forge-kit';
import { githubIntake } from './intake.js';
import { GITHUB_OPTIONS, githubCredentials } from './options.js';
import { githubCi } from './ci-runner.js';

export { GITHUB_OPTIONS, githubCredentials, type GithubOptions, type GithubCredentials } from './options.js';
export { verdictOf, checkSummary, failsPolicy, escapeMarkdown, type FailOn } from './verdict.js';
export { forgeErrorCode } from './forge-error.js';
export { githubIntake } from './intake.js';
export { githubPush, githubPullRequest, isGithubFullName, type PushOutcome } from './payload.js';

/**
 * Everything Cadence does with GitHub, in one plugin: its webhooks (verified with the server's
 * secret, read into analysis requests: the `forge` declaration), the squash look-up before a
 * one-commit push is fetched (`prepareRequest`), and the verdict back on the commit: a commit status
 * (`pending` while the job runs, then success, failure or error) with a token, or a check run
 * (in_progress, then completed with a summary and annotations) with a GitHub App. Reporting never
 * fails a job, and the job's `complete` event does not wait for GitHub. Octokit loads on first use.
 */
export default definePlugin({
  name: 'github',
  meta: {
    description:
      'GitHub: webhook intake, squash look-ups, and each job\u2019s verdict as a commit status or check run.',
    options: GITHUB_OPTIONS,
    configKey: 'forges.github',
    docsUrl: 'https://github.com/cadence/cadence/blob/main/docs/forges.md',
  },
  forge: {
    name: 'github',
    ci: githubCi,
    intake({ options }) {
      // Pull request events become jobs only where their verdict can be reported.
      return githubIntake({ requests: githubCredentials(options) !== null, drafts: options.request_drafts });
    },
    // Loaded when a scan asks: a webhook or an analysis never loads the listing.
    async listRepositories({ options }, owner, signal) {
      const { listGithubRepositories } = await import('./listing.js');
      return listGithubRepositories(githubCredentials(options), owner, signal);
    },
    gitAuthorization({ options }) {
      const token = options.token;
      return token ? `Authorization: Basic ${Buffer.from(`x-access-token:${token}`).toString('base64')}` : null;
    },
    // The token goes only to the git host that belongs to api_url, and those named in git_hosts.
    gitHosts({ options }) {
      return [forgeGitHost(options.api_url), ...options.git_hosts].filter((host): host is string => host !== null);
    },
  },
  apply(hooks, environment) {
    const options = environment.options;
    const credentials = githubCredentials(options);
    if (!credentials) return;
    const logger = environment.logger;
    // Configured: Octokit loads now, in the background, so that the first job's pending status does not wait for it.
    const modules = Promise.all([import('./github-reporter.js'), import('./squash.js')]);
    // Said when a job needs them (lazyForgeReporter's onLoadError, the look-up's warning), not as an unhandled rejection now.
    modules.catch(() => undefined);
    tapForgeReporter(
      hooks,
      'report-github',
      'github',
      lazyForgeReporter(
        async () => new (await modules)[0].GithubReporter(credentials, options.fail_on, logger),
        (error) => logger.error('the GitHub reporter could not load', { error: String(error) }),
      ),
    );
    tapSquashLookup(hooks, { name: 'github', forge: 'github', logger }, async (target, signal) =>
      (await modules)[1].githubSquash(credentials, target, signal),
    );
  },
});
