import type { OperationalCode } from './codes.js';

/**
 * The codes a job record (`error_code`), its stream's `error` event and an analysis failure's HTTP
 * body carry: the HTTP interface's own codes, and the few the interface leaves to us (a clone or a
 * job that ran out of time, a cancelled job, a website fetch's failures, the network guard). API
 * clients match on these, so every other code the engine raises is shown as its nearest one of
 * them, with the precise cause beside it as a reason (docs/http-api.md, Error codes).
 */
const NEAREST: Partial<Record<OperationalCode, { readonly code: OperationalCode; readonly reason: string }>> = {
  ERR_BRANCH_NOT_FOUND: { code: 'ERR_NO_COMMITS_FOUND', reason: 'branch_not_found' },
  ERR_NOT_A_REPOSITORY: { code: 'ERR_GIT_CLONE_FAILED', reason: 'not_a_repository' },
  ERR_PATH_NOT_FOUND: { code: 'ERR_GIT_CLONE_FAILED', reason: 'path_not_found' },
  ERR_GIT_READ_FAILED: { code: 'ERR_GIT_CLONE_FAILED', reason: 'git_read_failed' },
  ERR_INVALID_SOURCE: { code: 'ERR_GIT_CLONE_FAILED', reason: 'invalid_source' },
  ERR_FORGE_AUTH: { code: 'ERR_GIT_CLONE_FAILED', reason: 'forge_auth' },
  ERR_FORGE_RATE_LIMIT: { code: 'ERR_GIT_CLONE_FAILED', reason: 'forge_rate_limit' },
  ERR_FORGE_UNAVAILABLE: { code: 'ERR_GIT_CLONE_FAILED', reason: 'forge_unavailable' },
  // A worker process that stopped twice under a job was, as a rule, killed for its memory.
  ERR_WORKER_LOST: { code: 'ERR_OUT_OF_MEMORY', reason: 'worker_lost' },
};

export interface JobErrorCode {
  readonly code: OperationalCode;
  /** The engine's own cause where the code is its nearest interface code (`branch_not_found`), else null. */
  readonly reason: string | null;
}

/** What a job's failure is shown as, from the code the engine raised. */
export function jobErrorCode(raised: OperationalCode): JobErrorCode {
  const nearest = NEAREST[raised];
  return nearest ? { code: nearest.code, reason: nearest.reason } : { code: raised, reason: null };
}

/** Every code shown as another, for the docs' table and its test. */
export function jobCodeMappings(): readonly (readonly [OperationalCode, JobErrorCode])[] {
  return Object.entries(NEAREST).map(([raised, nearest]) => [raised as OperationalCode, nearest]);
}
