import { definePlugin, forgeGitHost } from '@cadence-detect/plugin-sdk';
import { giteaIntake } from './intake.js';
import { GITEA_OPTIONS } from './options.js';

export { GITEA_OPTIONS, type GiteaOptions } from './options.js';
export { giteaIntake } from './intake.js';
export { giteaPullRequest, giteaPush, type PushOutcome } from './payload.js';

/**
 * Gitea and Forgejo (forge `gitea`): their signed webhooks at /webhooks/gitea become jobs, and the
 * token goes with clones of the instance's own host. Commit statuses, request comments and
 * organization listings are not built yet (docs/forges.md).
 */
export default definePlugin({
  name: 'gitea',
  meta: {
    description: 'Gitea and Forgejo: signed push and pull-request webhooks, and the token for private clones.',
    options: GITEA_OPTIONS,
    configKey: 'forges.gitea',
    docsUrl: 'https://github.com/cadence/cadence/blob/main/docs/forges.md',
  },
  forge: {
    name: 'gitea',
    intake({ options }) {
      return giteaIntake({ drafts: options.request_drafts });
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
  apply() {
    // Intake and clone credentials only, for now: nothing to tap.
  },
});
