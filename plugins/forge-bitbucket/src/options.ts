import { Type } from '@cadence-detect/plugin-sdk/typebox';
import type { OptionsOf } from '@cadence-detect/plugin-sdk';

/**
 * The plugin's options: `forges.bitbucket.*` (its `meta.configKey`; CADENCE_BITBUCKET_<OPTION> in
 * the environment); `plugin_options.bitbucket` sets the same keys (docs/forges.md).
 */
export const BITBUCKET_OPTIONS = Type.Object(
  {
    /**
     * A repository, project or workspace access token; or, with `email`, an Atlassian API token
     * with Bitbucket scopes. App passwords are retired and not taken.
     */
    token: Type.Union([Type.String({ minLength: 1 }), Type.Null()], { default: null, secret: true }),
    /** The e-mail of the account an API token belongs to (REST calls use it as the user name); null for an access token. */
    email: Type.Union([Type.String({ minLength: 3 }), Type.Null()], { default: null }),
    /** Bitbucket Cloud's API. Configuration, not user input: a test points it at a fake Bitbucket. */
    api_url: Type.String({ minLength: 1, default: 'https://api.bitbucket.org/2.0' }),
    /** Hosts (`host` or `host:port`) that serve git besides bitbucket.org (or `api_url`'s own host). */
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

export type BitbucketOptions = OptionsOf<typeof BITBUCKET_OPTIONS>;
