import { definePlugin, forgeGitHost } from '@cadence-detect/plugin-sdk';
import { lazyForgeReporter, tapForgeReporter, tapSquashLookup } from '@cadence-detect/forge-kit';
import { gitlabIntake } from './intake.js';
import { GITLAB_OPTIONS, gitlabCredentials } from './options.js';
import { gitlabCi } from './ci-setup.js';

export { GITLAB_OPTIONS, gitlabCredentials, type GitlabOptions, type GitlabCredentials } from './options.js';
export { noteBody, statusDescription, failsPolicy, NOTE_MARKER, type FailOn } from './verdict.js';
export { gitlabIntake } from './intake.js';
export { gitlabPush, gitlabMergeRequest, isGitlabPath, type PushOutcome } from './payload.js';

/**
 * Everything Cadence does with GitLab, in one plugin: its webhooks (the `forge` declaration), the
 * squash look-up before a one-commit push is fetched (`prepareRequest`), and the verdict back on
 * the commit: a commit status (`running` while the job runs, then `success` or `failed`) and,
 * optionally, one merge request note kept up to date. Reporting never fails a job; the `complete`
 * event does not wait for GitLab. Gitbeaker loads on first use.
 */
export default definePlugin({
  name: 'gitlab',
  meta: {
    description:
      'GitLab: webhook intake, squash look-ups, and each job\u2019s verdict as a commit status and, optionally, a merge request note.',
    options: GITLAB_OPTIONS,
    configKey: 'forges.gitlab',
    docsUrl: 'https://github.com/cadence/cadence/blob/main/docs/forges.md',
  },
  forge: {
    name: 'gitlab',
    ci: gitlabCi,
    intake({ options }) {
      // Merge request events become jobs only where their verdict can be reported.
      return gitlabIntake({ requests: gitlabCredentials(options) !== null, drafts: options.request_drafts });
    },
    // Loaded when a scan asks: a webhook or an analysis never loads the listing.
    async listRepositories({ options }, group, signal) {
      const { listGitlabRepositories } = await import('./listing.js');
      return listGitlabRepositories(gitlabCredentials(options), group, signal);
    },
    gitAuthorization({ options }) {
      const token = options.token;
      return token ? `Authorization: Basic ${Buffer.from(`oauth2:${token}`).toString('base64')}` : null;
    },
    // The token goes only to the git host that belongs to api_url, and those named in git_hosts.
    gitHosts({ options }) {
      return [forgeGitHost(options.api_url), ...options.git_hosts].filter((host): host is string => host !== null);
    },
  },
  apply(hooks, environment) {
    const options = environment.options;
    const credentials = gitlabCredentials(options);
    if (!credentials) return;
    const logger = environment.logger;
    const settings = { failOn: options.fail_on, mergeRequestNote: options.merge_request_note };
    // Configured: Gitbeaker loads now, in the background, so that the first job's running status does not wait for it.
    const modules = Promise.all([import('./gitlab-reporter.js'), import('./squash.js')]);
    // Said when a job needs them (lazyForgeReporter's onLoadError, the look-up's warning), not as an unhandled rejection now.
    modules.catch(() => undefined);
    tapForgeReporter(
      hooks,
      'report-gitlab',
      'gitlab',
      lazyForgeReporter(
        async () => (await modules)[0].gitlabReporter(credentials, settings, logger),
        (error) => logger.error('the GitLab reporter could not load', { error: String(error) }),
      ),
    );
    tapSquashLookup(hooks, { name: 'gitlab', forge: 'gitlab', logger }, async (target, signal) =>
      (await modules)[1].gitlabSquash(credentials, target, signal),
    );
  },
});
