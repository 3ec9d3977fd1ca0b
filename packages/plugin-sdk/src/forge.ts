import type { KeyObject } from 'node:crypto';
import type { RepositoryRequest } from './analysis-request.js';
import type { CiRunner } from './ci.js';
import type { ForgeTarget } from './job.js';
import type { PluginLogger } from './logger.js';
import type { PluginOptions } from './options.js';

/**
 * A forge a plugin brings: its webhook intake, served by the host at `/webhooks/<name>`.
 * The same plugin usually taps `prepareRequest` (look-ups on the forge's API before the source is
 * fetched) and the reporter hooks (`tapForgeReporter`); the host maps its `forges.<name>` settings to
 * the plugin's options. docs/plugins.md, Forge plugins.
 * @since 1.6
 */
export interface ForgeDefinition<O extends object = PluginOptions> {
  /** Lower-case letters, digits and dashes: the webhook path, `forges.<name>` and `ForgeTarget.forge`. */
  readonly name: string;
  /**
   * Builds the intake once, when the server starts, from the plugin's own options (checked and
   * frozen, as `environment.options`). It runs on the server's HTTP thread: keep it cheap.
   */
  intake(setup: IntakeSetup<O>): ForgeIntake;
  /**
   * Every repository of an owner (an organization or user, a group with its subgroups),
   * for `cadence scan <forge>:<owner>`, through the forge's API with the plugin's credentials.
   * Throws a CadenceError (ERR_FORGE_AUTH, ERR_FORGE_UNAVAILABLE…) when the forge refuses.
   * @since 1.7
   */
  listRepositories?(setup: IntakeSetup<O>, owner: string, signal: AbortSignal): Promise<ListedRepository[]>;
  /**
   * The HTTP header git sends with clones of the repositories `listRepositories` gave
   * (the token outside the URL, so that no URL, job record, log line or mirror config holds it), or
   * null without credentials. The host scopes it to the origin of each listed clone URL.
   * @since 1.7
   */
  gitAuthorization?(setup: IntakeSetup<O>): string | null;
  /**
   * The hosts (`host` or `host:port`) that serve this forge's git repositories: the only
   * places `gitAuthorization`'s header is sent. A listing that names a clone URL elsewhere (a
   * hostile or compromised API) gets that clone without credentials. A forge that declares no
   * hosts has its header sent nowhere. `forgeGitHost(api_url)` gives the usual one.
   * @since 1.8
   */
  gitHosts?(setup: IntakeSetup<O>): readonly string[];
  /**
   * What `cadence ci <name>` runs in this forge's CI (reading its variables, writing its outputs and
   * reports), and what `cadence config init --ci <name>` writes. It runs in a CI job, where the
   * plugin's options are not read: everything comes from the job's environment and the command.
   * @since 2.0
   */
  readonly ci?: CiRunner;
}

/**
 * The web host that serves a forge's git repositories, from its API's address: `api.github.com`
 * gives `github.com`, `https://ghe.example.com/api/v3` gives `ghe.example.com`, GitLab's
 * `https://gitlab.example.com/api/v4` gives `gitlab.example.com`, `api.bitbucket.org` gives
 * `bitbucket.org` (since 1.13); any other API address gives its
 * own host. Null for an address that is not a URL.
 * @since 1.8
 */
export function forgeGitHost(apiUrl: string): string | null {
  let url: URL;
  try {
    url = new URL(apiUrl);
  } catch {
    return null;
  }
  if (url.hostname.toLowerCase() === 'api.github.com') return 'github.com';
  if (url.hostname.toLowerCase() === 'api.bitbucket.org') return 'bitbucket.org';
  return normalizeGitHost(url.host);
}

/**
 * A host as the forge-credential check compares it: lower case, no trailing dot, the default https
 * port left out (`Git.Example.com.:443` is `git.example.com`); null when it is not a host.
 */
export function normalizeGitHost(host: string): string | null {
  if (!host || /[/?#@\s]/.test(host)) return null;
  try {
    const parsed = new URL(`https://${host}/`);
    return parsed.host.toLowerCase().replace(/\.(?=:|$)/, '');
  } catch {
    return null;
  }
}

/** One repository a forge listed. */
export interface ListedRepository {
  /** `owner/name`, or the project's full path. */
  readonly repository: string;
  /** What git clones: the forge's https clone URL. */
  readonly cloneUrl: string;
  readonly archived: boolean;
  readonly fork: boolean;
  readonly private: boolean;
}

export interface IntakeSetup<O extends object = PluginOptions> {
  /**
   * The plugin's options, typed by its schema as `environment.options` is.
   * @since 1.6
   */
  readonly options: O;
  readonly logger: PluginLogger;
}

/**
 * One forge's webhooks. Both methods run for every delivery, on the HTTP thread, before any job
 * exists: no I/O, no dynamic import. A refusal is thrown (`refuseDelivery`, `invalidPayload`) and
 * answered with the contract's error body.
 */
export interface ForgeIntake {
  /**
   * Called only when the server has a webhook secret: throws `refuseDelivery(401 | 403, …)` unless
   * the delivery proves it (a signature over `delivery.body`, compared in constant time).
   */
  verify(delivery: WebhookDelivery, secret: WebhookSecret): void;
  /** What the delivery asks for: a job, a ping, or nothing (acknowledged with 200). */
  parse(delivery: WebhookDelivery): WebhookOutcome;
}

/** The server's webhook secret, in the two forms a check needs, made once. */
export interface WebhookSecret {
  /** As configured (a token compared as is, with `constantTimeEqual`). */
  readonly text: string;
  /** As an HMAC key (`verifyHubSignature`). */
  readonly key: KeyObject;
}

/** One delivery as it arrived: nothing of it is trusted before `verify`. */
export interface WebhookDelivery {
  /** A request header by its lower-case name; `''` when absent. */
  header(name: string): string;
  /** The body's bytes as sent: what a signature covers. */
  readonly body: Buffer;
  /**
   * The body parsed: JSON, or the `payload` field of a form-encoded body. Parsed once, on the first
   * call; a body that is no JSON object is refused with 400 `invalid_request`.
   */
  payload(): Record<string, unknown>;
}

/** What a forge's push or request event asks to analyze. */
export interface WebhookPush {
  /** The repository's name when its URL gives none (`owner/name`). */
  readonly repo: string;
  /** What the job analyzes: its `url` (the payload's clone URL) passes the URL rules of any request, its branch git's branch-name rules. */
  readonly request: RepositoryRequest;
  /** Where the verdict is reported (the pushed head on this forge), or null. */
  readonly forge: ForgeTarget | null;
  /** The forge's id of this delivery (a redelivery repeats it), or `''`: one job per id. */
  readonly delivery: string;
}

export type WebhookOutcome =
  | { readonly kind: 'push'; readonly push: WebhookPush }
  /** `{ ok: true, event: 'ping' }`: the forge checking the webhook. */
  | { readonly kind: 'ping' }
  /** An event this forge plugin does not analyze: `{ ignored: true, event }`. */
  | { readonly kind: 'ignored-event'; readonly event: string | null }
  /** An analyzable event that asks for nothing (a tag, a deleted branch, a closed request): `{ ignored: true, reason }`. */
  | { readonly kind: 'ignored'; readonly reason: string };
