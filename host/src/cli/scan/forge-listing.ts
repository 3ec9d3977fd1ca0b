import type { LoadedPlugin } from '@cadence-detect/plugin-loader';
import { toCadenceError } from '@cadence-detect/errors';
import type { ForgeDefinition, PluginLogger } from '@cadence-detect/plugin-sdk';
import { CliError } from '../exit-codes.js';
import type { ScanTarget } from './repository-list.js';

export interface ListingFilter {
  readonly includeForks: boolean;
  readonly includeArchived: boolean;
}

/** `github:acme`, `gitlab:group/sub`: the forge (a loaded plugin's `forge.name`) and the owner. */
export function parseForgeTarget(target: string): { forge: string; owner: string } | null {
  const match = /^([a-z][a-z0-9-]{0,39}):(.+)$/.exec(target);
  return match ? { forge: match[1]!, owner: match[2]!.replace(/\/+$/, '') } : null;
}

/**
 * The owner's repositories as the forge plugin lists them (its API, its credentials), forks and
 * archived ones left out unless asked for. Each carries the plugin's git authorization scoped to
 * the origin of its own clone URL: the token goes nowhere else.
 */
export async function repositoriesFromForge(plugins: readonly LoadedPlugin[], target: { forge: string; owner: string }, filter: ListingFilter, logger: PluginLogger, signal: AbortSignal): Promise<ScanTarget[]> {
  const loaded = plugins.find((p) => p.plugin.forge?.name === target.forge);
  const forge = loaded?.plugin.forge as ForgeDefinition<Readonly<Record<string, unknown>>> | undefined;
  if (!loaded || !forge) throw new CliError('usage', `no loaded plugin brings the forge ${JSON.stringify(target.forge)}: give github:<org>, gitlab:<group> or --repos <file>`);
  if (!forge.listRepositories) throw new CliError('usage', `the ${target.forge} plugin cannot list repositories; give --repos <file>`);
  const setup = { options: loaded.options ?? {}, logger };
  // A refusal is the forge's CadenceError (ERR_FORGE_AUTH…): the CLI's one mapping gives its exit code.
  const listed = await forge.listRepositories(setup, target.owner, signal).catch((error: unknown) => {
    throw toCadenceError(error);
  });
  const header = forge.gitAuthorization?.(setup) ?? null;
  return listed
    .filter((r) => (filter.includeForks || !r.fork) && (filter.includeArchived || !r.archived))
    .map((r) => {
      const origin = httpOrigin(r.cloneUrl);
      return { repository: r.repository, url: r.cloneUrl, ...(header && origin ? { authorization: { urlPrefix: `${origin}/`, header } } : {}) };
    });
}

function httpOrigin(url: string): string | null {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'https:' || parsed.protocol === 'http:' ? parsed.origin : null;
  } catch {
    return null;
  }
}
