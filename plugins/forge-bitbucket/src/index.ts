import { definePlugin, forgeGitHost } from '@cadence-detect/plugin-sdk';
import { lazyForgeReporter, tapForgeReporter } from '@cadence-detect/forge-kit';
import { bitbucketCredentials, bitbucketGitAuthorization } from './bitbucket-client.js';
import { bitbucketIntake } from './intake.js';
import { BITBUCKET_OPTIONS } from './options.js';
import { bitbucketCi } from './ci-setup.js';

export { BITBUCKET_OPTIONS, type BitbucketOptions } from './options.js';
export { bitbucketCredentials, bitbucketGitAuthorization, type BitbucketCredentials } from './bitbucket-client.js';
export { bitbucketIntake } from './intake.js';
export { bitbucketPullRequest, bitbucketPush, cloneUrlOf, type PushOutcome } from './payload.js';

/**
 * Bitbucket Cloud (forge `bitbucket`): its signed webhooks at /webhooks/bitbucket become jobs;
 * with a token, each job's verdict goes back as a build status and, optionally, one pull-request
 * comment kept up to date; `cadence scan bitbucket:<workspace>` lists a workspace's repositories;
 * the token goes with clones of bitbucket.org. Data Center is not covered.
 */
export default definePlugin({
  name: 'bitbucket',
  meta: {
    description:
      'Bitbucket Cloud: signed push and pull-request webhooks, each job\u2019s verdict as a build status and an optional pull-request comment, workspace listings.',
    options: BITBUCKET_OPTIONS,
    configKey: 'forges.bitbucket',
    docsUrl: 'https://github.com/cadence/cadence/blob/main/docs/forges.md',
  },
  forge: {
    name: 'bitbucket',
    ci: bitbucketCi,
    intake({ options }) {
      return bitbucketIntake({ drafts: options.request_drafts });
    },
    // Loaded when a scan asks: a webhook or an analysis never loads the listing.
    async listRepositories({ options }, workspace, signal) {
      const { listBitbucketRepositories } = await import('./listing.js');
      return listBitbucketRepositories(bitbucketCredentials(options), workspace, signal);
    },
    gitAuthorization({ options }) {
      const credentials = bitbucketCredentials(options);
      return credentials ? bitbucketGitAuthorization(credentials) : null;
    },
    // The token goes only to bitbucket.org (or the host of a configured api_url) and those named in git_hosts.
    gitHosts({ options }) {
      return [forgeGitHost(options.api_url), ...options.git_hosts].filter((host): host is string => host !== null);
    },
  },
  apply(hooks, environment) {
    const options = environment.options;
    const credentials = bitbucketCredentials(options);
    if (!credentials) return;
    const logger = environment.logger;
    const settings = { failOn: options.fail_on, comment: options.pull_request_comment };
    tapForgeReporter(
      hooks,
      'report-bitbucket',
      'bitbucket',
      lazyForgeReporter(
        async () => (await import('./bitbucket-reporter.js')).bitbucketReporter(credentials, settings, logger),
        (error) => logger.error('the Bitbucket reporter could not load', { error: String(error) }),
      ),
    );
  },
});
