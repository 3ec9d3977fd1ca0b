import picomatch from '../vendor/picomatch.js';
import { Type } from '@cadence-detect/plugin-sdk/typebox';
import { CadenceError, HttpError, errorMessage } from '@cadence-detect/errors';
import { parseRepositoryUrl } from '@cadence-detect/git-source';
import { checkListingForge } from '@cadence-detect/organization';
import type { LoadedPlugin } from '@cadence-detect/plugin-loader';
import type { OrganizationRequest } from '../jobs/job.js';
import { validated } from '../request-validation.js';
import { isForgeName, isOwnerPath } from '@cadence-detect/config';

/** At most this many repositories in one request's list (a scan of more is a listing mistake). */
export const MAX_LISTED_REPOSITORIES = 10_000;

const Since = Type.String({
  minLength: 1,
  maxLength: 40,
  pattern: '^\\d{4}-\\d{2}-\\d{2}(T[0-9:.]+(Z|[+-]\\d{2}:?\\d{2})?)?$',
  description: 'a date such as 2025-01-01',
});

export const OrganizationBody = Type.Object(
  {
    forge: Type.Optional(Type.String({ minLength: 1, maxLength: 40, description: 'a forge such as github or gitlab' })),
    owner: Type.Optional(
      Type.String({ minLength: 1, maxLength: 255, description: 'an organization or group such as acme' }),
    ),
    repositories: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: 2048 }), { minItems: 1, maxItems: MAX_LISTED_REPOSITORIES }),
    ),
    include_forks: Type.Optional(Type.Boolean()),
    include_archived: Type.Optional(Type.Boolean()),
    match: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    since: Type.Optional(Since),
  },
  { additionalProperties: false },
);

/** What decides whether a scan may start: the configuration's rules and the loaded forges. */
export interface ScanRules {
  /** `scans.allowed_owners`: `forge:owner` globs. */
  readonly allowedOwners: readonly string[];
  readonly allowLocalPaths: boolean;
  readonly plugins: () => readonly LoadedPlugin[];
}

/**
 * `POST /api/analyze/organization`'s body as the scan it asks for (docs/http-api.md): a forge's
 * owner that `scans.allowed_owners` lists (403 otherwise) and a loaded plugin can list, or a list
 * of repositories each passing the URL rules (400 naming the first refused). Nothing is listed here.
 */
export function organizationRequest(body: unknown, rules: ScanRules): OrganizationRequest {
  const b = validated(OrganizationBody, body);
  const byForge = b.forge !== undefined || b.owner !== undefined;
  if (byForge === (b.repositories !== undefined)) {
    throw HttpError.invalidRequest(byForge ? 'repositories' : 'forge', 'give either forge and owner, or repositories');
  }
  const common = {
    ...(b.match !== undefined ? { match: b.match } : {}),
    ...(b.since !== undefined ? { since: b.since } : {}),
  };
  if (b.repositories) {
    b.repositories.forEach((url, i) => checkListedUrl(url, i, rules.allowLocalPaths));
    return { kind: 'organization', url: 'repositories', repositories: b.repositories, ...common };
  }
  if (b.forge === undefined) throw HttpError.invalidRequest('forge', 'missing (github or gitlab) with owner');
  if (b.owner === undefined) throw HttpError.invalidRequest('owner', 'missing (the organization or group) with forge');
  // Checked here too (each forge's plugin checks its own grammar when it lists): an owner with `..`
  // or odd characters never reaches the allow-list's globs.
  if (!isOwnerPath(b.owner)) {
    throw HttpError.invalidRequest(
      'owner',
      'must be an organization, user or group path such as acme or platform/backend',
    );
  }
  if (!isForgeName(b.forge)) throw HttpError.invalidRequest('forge', 'must be a forge name such as github or gitlab');
  const { forge, owner } = { forge: b.forge, owner: b.owner.replace(/\/+$/, '') };
  checkListingForge(rules.plugins(), forge);
  if (!ownerAllowed(rules.allowedOwners, forge, owner)) {
    throw new CadenceError('ERR_SCAN_NOT_ALLOWED', { message: `scans.allowed_owners does not list ${forge}:${owner}` });
  }
  return {
    kind: 'organization',
    url: `${forge}:${owner}`,
    forge,
    owner,
    include_forks: b.include_forks === true,
    include_archived: b.include_archived === true,
    ...common,
  };
}

/** Whether `scans.allowed_owners` lets `forge:owner` be scanned (globs, case-insensitive as forges are). */
export function ownerAllowed(patterns: readonly string[], forge: string, owner: string): boolean {
  if (patterns.length === 0) return false;
  return picomatch([...patterns], { nocase: true, dot: true })(`${forge}:${owner}`);
}

function checkListedUrl(url: string, index: number, allowLocalPaths: boolean): void {
  try {
    parseRepositoryUrl(url, { allowLocalPaths });
  } catch (error) {
    const reason = errorMessage(error);
    throw new HttpError(400, 'invalid_request', `repositories[${index}]: ${reason}`, {
      details: { field: `repositories.${index}`, reason },
    });
  }
}
