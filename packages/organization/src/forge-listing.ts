import { CadenceError, toCadenceError, itemAt } from '@cadence-detect/errors';
import type { LoadedPlugin } from '@cadence-detect/plugin-loader';
import {
  normalizeGitHost,
  type ForgeDefinition,
  type IntakeSetup,
  type PluginLogger,
} from '@cadence-detect/plugin-sdk';

/** One repository a scan will analyze: the name reports show and what git clones. */
export interface ScanTarget {
  readonly repository: string;
  readonly url: string;
  /** A header git sends to URLs under the prefix (a forge's token, from its plugin): never part of the URL. */
  readonly authorization?: GitAuthorization;
  /** The forge whose plugin gives that header (what a server's child job records instead of the header). */
  readonly forge?: string;
  /** Its own report's file name under `--reports-dir` (unique within the scan), without `.html`. */
  readonly reportName?: string;
  /** Set when the listing itself refused the entry: it is reported with this error, never analyzed. */
  readonly refused?: { readonly code: string; readonly message: string };
}

export interface GitAuthorization {
  readonly urlPrefix: string;
  readonly header: string;
}

export interface ListingFilter {
  readonly includeForks: boolean;
  readonly includeArchived: boolean;
}

/** `github:acme`, `gitlab:group/sub`: the forge (a loaded plugin's `forge.name`) and the owner. */
export function parseForgeTarget(target: string): { forge: string; owner: string } | null {
  const match = /^([a-z][a-z0-9-]{0,39}):(.+)$/.exec(target);
  return match ? { forge: itemAt(match, 1), owner: itemAt(match, 2).replace(/\/+$/, '') } : null;
}

type AnyForge = ForgeDefinition<Readonly<Record<string, unknown>>>;

/** The loaded plugin that brings `forge` and can list; ERR_INVALID_SOURCE (field `forge`) when none does. */
function listingForge(
  plugins: readonly LoadedPlugin[],
  forge: string,
): {
  forge: AnyForge;
  listRepositories: NonNullable<AnyForge['listRepositories']>;
  setup: (logger: PluginLogger) => IntakeSetup<Readonly<Record<string, unknown>>>;
} {
  const loaded = plugins.find((p) => p.plugin.forge?.name === forge);
  const definition = loaded?.plugin.forge;
  if (!loaded || !definition)
    throw new CadenceError('ERR_INVALID_SOURCE', {
      message: `no loaded plugin brings the forge ${JSON.stringify(forge)}: give github:<org>, gitlab:<group> or a list of repositories`,
      details: { field: 'forge', reason: 'unknown forge' },
    });
  const listRepositories = definition.listRepositories?.bind(definition);
  if (!listRepositories)
    throw new CadenceError('ERR_INVALID_SOURCE', {
      message: `the ${forge} plugin cannot list repositories; give a list of repositories`,
      details: { field: 'forge', reason: 'cannot list' },
    });
  return { forge: definition, listRepositories, setup: (logger) => ({ options: loaded.options ?? {}, logger }) };
}

/** Throws unless a loaded plugin brings `forge` and can list its repositories (a request refused before any job). */
export function checkListingForge(plugins: readonly LoadedPlugin[], forge: string): void {
  listingForge(plugins, forge);
}

/**
 * The owner's repositories as the forge plugin lists them (its API, its credentials), forks and
 * archived ones left out unless asked for. Each carries the plugin's git authorization scoped to
 * the origin of its own clone URL, when that URL is on one of the forge's git hosts: the token goes
 * nowhere else, whatever the listing names. A refusal is the forge's CadenceError (ERR_FORGE_AUTH…).
 */
export async function repositoriesFromForge(
  plugins: readonly LoadedPlugin[],
  target: { forge: string; owner: string },
  filter: ListingFilter,
  logger: PluginLogger,
  signal: AbortSignal,
): Promise<ScanTarget[]> {
  const { forge, listRepositories, setup } = listingForge(plugins, target.forge);
  const listed = await listRepositories(setup(logger), target.owner, signal).catch((error: unknown) => {
    throw toCadenceError(error);
  });
  const credentials = forgeCredentials(forge, setup(logger));
  return listed
    .filter((r) => (filter.includeForks || !r.fork) && (filter.includeArchived || !r.archived))
    .map((r) => {
      const authorization = credentials ? scopedAuthorization(credentials, r.cloneUrl) : null;
      return {
        repository: r.repository,
        url: r.cloneUrl,
        forge: target.forge,
        ...(authorization ? { authorization } : {}),
      };
    });
}

/**
 * The header a forge plugin gives git for `url`, scoped to that URL's origin; null without
 * credentials or for a URL that is not http(s). What a worker computes for a scan's child job,
 * whose record names the forge and never holds the header.
 */
export function forgeAuthorizationFor(
  plugins: readonly LoadedPlugin[],
  forgeName: string,
  url: string,
  logger: PluginLogger,
): GitAuthorization | null {
  const loaded = plugins.find((p) => p.plugin.forge?.name === forgeName);
  const forge = loaded?.plugin.forge;
  const credentials = forge ? forgeCredentials(forge, { options: loaded.options ?? {}, logger }) : null;
  return credentials ? scopedAuthorization(credentials, url) : null;
}

interface ForgeCredentials {
  readonly header: string;
  /** Normalised hosts (`host` or `host:port`) the header may go to. */
  readonly hosts: ReadonlySet<string>;
}

/** The plugin's git header and the hosts it may go to; null without a header. */
function forgeCredentials(
  forge: AnyForge,
  setup: IntakeSetup<Readonly<Record<string, unknown>>>,
): ForgeCredentials | null {
  const header = forge.gitAuthorization?.(setup) ?? null;
  if (!header) return null;
  const hosts = (forge.gitHosts?.(setup) ?? []).map(normalizeGitHost).filter((host): host is string => host !== null);
  return { header, hosts: new Set(hosts) };
}

/**
 * Credentials go only to the forge's own git hosts, and travel encrypted: over https, or over plain
 * http only to this machine (a forge on loopback). A listed clone URL anywhere else is cloned
 * without them.
 */
function scopedAuthorization(credentials: ForgeCredentials, url: string): GitAuthorization | null {
  try {
    const parsed = new URL(url);
    const loopback = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/i.test(parsed.hostname);
    const encrypted = parsed.protocol === 'https:' || (parsed.protocol === 'http:' && loopback);
    const host = normalizeGitHost(parsed.host);
    return encrypted && host !== null && credentials.hosts.has(host)
      ? { urlPrefix: `${parsed.origin}/`, header: credentials.header }
      : null;
  } catch {
    return null;
  }
}
