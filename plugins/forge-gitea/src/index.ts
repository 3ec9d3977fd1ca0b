import { definePlugin, forgeGitHost } from '@cadence-detect/plugin-sdk';
import { lazyForgeReporter, tapForgeReporter } from '@cadence-detect/forge-kit';
import { giteaCredentials } from './gitea-client.js';
import { giteaIntake } from './intake.js';
import { GITEA_OPTIONS } from './options.js';
import { giteaCi } from './ci-runner.js';

export { GITEA_OPTIONS, type GiteaOptions } from './options.js';
export { giteaCredentials, type GiteaCredentials } from './gitea-client.js';
export { giteaIntake } from './intake.js';
export { giteaPullRequest, giteaPush, type PushOutcome } from './payload.js';

/**
 * Gitea and Forgejo (forge `gitea`), in one plugin: their signed webhooks at /webhooks/gitea become
 * jobs; with a token and the API's address, each job's verdict goes back as a commit status and,
 * optionally, one pull-request comment kept up to date; `cadence scan gitea:<org>` lists an
 * organization's (or a user's) repositories; the token goes with clones of the instance's own host.
 */
export default definePlugin({
  name: 'gitea',
  meta: {
    description:
      'Gitea and Forgejo: signed push and pull-request webhooks, each job\u2019s verdict as a commit status and an optional pull-request comment, organization listings.',
    options: GITEA_OPTIONS,
    configKey: 'forges.gitea',
    docsUrl: 'https://github.com/cadence/cadence/blob/main/docs/forges.md',
  },
  forge: {
    name: 'gitea',
    ci: giteaCi,
    intake({ options }) {
      return giteaIntake({ drafts: options.request_drafts });
    },
    // Loaded when a scan asks: a webhook or an analysis never loads the listing.
    async listRepositories({ options }, owner, signal) {
      const { listGiteaRepositories } = await import('./listing.js');
      return listGiteaRepositories(giteaCredentials(options), owner, signal);
    },
    gitAuthorization({ options }) {
      return options.token ? `Authorization: token ${options.token}` : null;
    },
    // The token goes only to the git host that belongs to api_url, and those named in git_hosts.
    gitHosts({ options }) {
      return [options.api_url ? forgeGitHost(options.api_url) : null, ...options.git_hosts].filter(
        (host): host is string => host !== null,
      );
    },
  },
  apply(hooks, environment) {
    const options = environment.options;
    const credentials = giteaCredentials(options);
    if (!credentials) return;
    const logger = environment.logger;
    const settings = { failOn: options.fail_on, comment: options.pull_request_comment };
    tapForgeReporter(
      hooks,
      'report-gitea',
      'gitea',
      lazyForgeReporter(
        async () => (await import('./gitea-reporter.js')).giteaReporter(credentials, settings, logger),
        (error) => logger.error('the Gitea reporter could not load', { error: String(error) }),
      ),
    );
  },
});
