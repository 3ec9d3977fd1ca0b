/**
 * Commit names, in the three senses Cadence meets them. Git names a commit by SHA-1 (40
 * hex digits) or, in a SHA-256 repository, 64; git itself prints them in lower case.
 * @since 1.6
 */

/** A full commit name as git prints it: 40 or 64 lower-case hex digits. */
export const FULL_COMMIT_ID = /^[0-9a-f]{40}(?:[0-9a-f]{24})?$/;

const FULL_ANY_CASE = /^[0-9a-f]{40}(?:[0-9a-f]{24})?$/i;
const ABBREVIATED = /^[0-9a-f]{7,64}$/;
const ABBREVIATED_ANY_CASE = /^[0-9a-f]{7,64}$/i;

/**
 * A full commit name. `anyCase` accepts what a forge's payload or a person typed (git accepts
 * either case); read from git's own output, only lower case is one.
 */
export function isFullCommitId(value: string, options: { readonly anyCase?: boolean } = {}): boolean {
  return (options.anyCase ? FULL_ANY_CASE : FULL_COMMIT_ID).test(value);
}

/** A commit name or its abbreviation (7 to 64 hex digits, as git's `--abbrev` allows). */
export function isCommitIdPrefix(value: string, options: { readonly anyCase?: boolean } = {}): boolean {
  return (options.anyCase ? ABBREVIATED_ANY_CASE : ABBREVIATED).test(value);
}
