import { readFileSync } from 'node:fs';
import { Type } from '@cadence-detect/plugin-sdk/typebox';
import type { OptionsOf } from '@cadence-detect/plugin-sdk';

const NullableText = Type.Union([Type.String({ minLength: 1 }), Type.Null()], { default: null });
/** Masked by `cadence config`, scrubbed from logs (a `secret: true` option). */
const NullableSecret = Type.Union([Type.String({ minLength: 1 }), Type.Null()], { default: null, secret: true });

/**
 * The plugin's options: `forges.github.*` (its `meta.configKey`; CADENCE_GITHUB_<OPTION> in the
 * environment), plus `report.fail_on` and `forges.request_drafts` (docs/forges.md);
 * `plugin_options.github` sets the same keys for a deployment that configures the plugin itself.
 */
export const GITHUB_OPTIONS = Type.Object(
  {
    /** A token with commit statuses: read and write (commit statuses, squash look-ups). */
    token: NullableSecret,
    /** A GitHub App: with its private key, check runs as the App's installation. */
    app_id: Type.Union([Type.Integer({ minimum: 1 }), Type.Null()], { default: null }),
    /** The App's private key (PEM). */
    private_key: NullableSecret,
    /** Or a file holding it, read once when the plugin starts. */
    private_key_path: NullableText,
    /** Configuration, not user input: exempt from the network guard (GitHub Enterprise: https://ghe.example.com/api/v3). */
    api_url: Type.String({ minLength: 1, default: 'https://api.github.com' }),
    /**
     * Hosts (`host` or `host:port`) that serve git besides the one that belongs to `api_url`: where
     * `cadence scan` may send the token with a clone. Any other host's clone gets no credentials.
     */
    git_hosts: Type.Array(Type.String({ minLength: 1 }), { default: [] }),
    fail_on: Type.Union([Type.Literal('never'), Type.Literal('suspicious'), Type.Literal('likely_ai_generated')], {
      default: 'never',
    }),
    /** Draft pull requests are acknowledged and skipped unless this is true. */
    request_drafts: Type.Boolean({ default: false }),
  },
  { additionalProperties: false },
);

export type GithubOptions = OptionsOf<typeof GITHUB_OPTIONS>;

/** What the plugin may act as: a token, an App (id and key), both or neither. */
export interface GithubCredentials {
  readonly apiUrl: string;
  readonly token: string | null;
  readonly app: { readonly appId: number; readonly privateKey: string } | null;
}

/**
 * The one place that decides whether GitHub is configured: a token, or an App id with its key. The
 * key file is read here, once, when the plugin starts (the message names the path, never the key).
 * Null: the plugin neither reports nor looks anything up, and its intake takes pushes only.
 */
export function githubCredentials(
  options: Pick<GithubOptions, 'token' | 'app_id' | 'private_key' | 'private_key_path' | 'api_url'>,
): GithubCredentials | null {
  const privateKey =
    options.app_id === null
      ? null
      : (options.private_key ?? (options.private_key_path ? readPrivateKey(options.private_key_path) : null));
  const app = options.app_id !== null && privateKey ? { appId: options.app_id, privateKey } : null;
  if (!options.token && !app) return null;
  return { apiUrl: options.api_url.replace(/\/+$/, ''), token: options.token, app };
}

/** The App's private key, once, at start-up: an unreadable file stops start-up (exit 2) naming the path. */
function readPrivateKey(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    throw new Error(
      `Invalid configuration: forges.github.private_key_path: cannot read ${file} (${error instanceof Error && 'code' in error && typeof error.code === 'string' ? error.code : 'error'})`,
    );
  }
}
