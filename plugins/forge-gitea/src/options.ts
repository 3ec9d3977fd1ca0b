import { Type } from '@cadence-detect/plugin-sdk/typebox';
import type { OptionsOf } from '@cadence-detect/plugin-sdk';

/**
 * The plugin's options: `forges.gitea.*` (its `meta.configKey`; CADENCE_GITEA_<OPTION> in the
 * environment), plus `report.fail_on` and `forges.request_drafts` (docs/forges.md); `plugin_options.gitea` sets the same keys.
 */
export const GITEA_OPTIONS = Type.Object(
  {
    /** An access token (Gitea or Forgejo): sent as `Authorization: token …` with clones of its host. */
    token: Type.Union([Type.String({ minLength: 1 }), Type.Null()], { default: null, secret: true }),
    /** The instance's API (`https://codeberg.org/api/v1`); its host is where the token may go. Configuration, not user input. */
    api_url: Type.Union([Type.String({ minLength: 1 }), Type.Null()], { default: null }),
    /** Hosts (`host` or `host:port`) that serve git besides the one of `api_url`. */
    git_hosts: Type.Array(Type.String({ minLength: 1 }), { default: [] }),
    /** One comment per pull request, updated on each push. */
    pull_request_comment: Type.Boolean({ default: false }),
    fail_on: Type.Union([Type.Literal('never'), Type.Literal('suspicious'), Type.Literal('likely_ai_generated')], {
      default: 'never',
    }),
    /** Draft pull requests are acknowledged and skipped unless this is true. */
    request_drafts: Type.Boolean({ default: false }),
  },
  { additionalProperties: false },
);

export type GiteaOptions = OptionsOf<typeof GITEA_OPTIONS>;
