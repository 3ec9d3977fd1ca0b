import { Type } from '@cadence-detect/plugin-sdk/typebox';
import type { OptionsOf } from '@cadence-detect/plugin-sdk';

/**
 * The plugin's options: `forges.gitlab.*` (its `meta.configKey`; CADENCE_GITLAB_<OPTION> in the
 * environment), plus `report.fail_on` and `forges.request_drafts` (docs/forges.md);
 * `plugin_options.gitlab` sets the same keys.
 */
export const GITLAB_OPTIONS = Type.Object(
  {
    /** A project or group access token with the api scope: commit statuses, notes, squash look-ups. */
    token: Type.Union([Type.String({ minLength: 1 }), Type.Null()], { default: null, secret: true }),
    /** Configuration, not user input: exempt from the network guard. */
    api_url: Type.String({ minLength: 1, default: 'https://gitlab.com/api/v4' }),
    /**
     * Hosts (`host` or `host:port`) that serve git besides the one that belongs to `api_url`: where
     * `cadence scan` may send the token with a clone. Any other host's clone gets no credentials.
     */
    git_hosts: Type.Array(Type.String({ minLength: 1 }), { default: [] }),
    /** One note per merge request, updated on each push. */
    merge_request_note: Type.Boolean({ default: false }),
    fail_on: Type.Union([Type.Literal('never'), Type.Literal('suspicious'), Type.Literal('likely_ai_generated')], {
      default: 'never',
    }),
    /** Draft merge requests are acknowledged and skipped unless this is true. */
    request_drafts: Type.Boolean({ default: false }),
  },
  { additionalProperties: false },
);

export type GitlabOptions = OptionsOf<typeof GITLAB_OPTIONS>;

export interface GitlabCredentials {
  /** The API's host, without the `/api/v4` gitbeaker adds itself. */
  readonly host: string;
  readonly token: string;
}

/** The one place that decides whether GitLab is configured: a token. Null: no reports, no look-ups, pushes only. */
export function gitlabCredentials(options: Pick<GitlabOptions, 'token' | 'api_url'>): GitlabCredentials | null {
  if (!options.token) return null;
  return { host: options.api_url.replace(/\/+$/, '').replace(/\/api\/v4$/, ''), token: options.token };
}
