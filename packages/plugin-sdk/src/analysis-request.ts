import type { Thresholds } from './commit.js';

/**
 * A squash commit's request, as a forge's `prepareRequest` tap found it.
 * @since 1.6
 */
export interface SquashedRequest {
  /** The squash commit that was pushed (full hash). */
  readonly commit: string;
  /** The pull or merge request's number. */
  readonly request: number;
  /** Where the request's original commits still are: `refs/pull/N/head`, `refs/merge-requests/N/head`. */
  readonly ref: string;
  /** The request's head commit (full hash). */
  readonly head: string;
}

/** What a repository analysis is asked to do (the engine's, the server's and the CLI's request). */
export interface RepositoryRequest {
  readonly kind: 'repository';
  readonly url: string;
  readonly branch?: string | null;
  /**
   * A push: analyze `before..after`, judged against the history before it. Full ids; with `ref`,
   * `after` may be a prefix of 12 or more characters (1.13: Bitbucket's request payloads), resolved
   * once the ref is fetched.
   */
  readonly range?: { readonly before: string | null; readonly after: string };
  /**
   * A pull or merge request: its head's ref (`refs/pull/N/head`, `refs/merge-requests/N/head`,
   * or since 1.13 `refs/heads/<source branch>` where a forge keeps no request ref, as Bitbucket),
   * fetched from the base repository; `branch` is the target branch and, without a `before`,
   * the range starts at the merge base of the two: exactly the request's own commits.
   */
  readonly ref?: string;
  /**
   * A push of exactly one new commit onto a branch, the shape a squash merge has. A forge's
   * intake sets it; that forge's `prepareRequest` tap asks its API whether the commit squashes a request.
   * @since 1.6
   */
  readonly squash_candidate?: boolean;
  /**
   * A push whose one commit squashes a request (the forge says so): its original commits, at
   * `ref` (head `head`), are analyzed instead when they can still be fetched; else the push as is.
   */
  readonly squash?: SquashedRequest;
  readonly thresholds?: Partial<Thresholds>;
  /**
   * `all`: every author in `authors` rather than the 50 with the most commits (the organization
   * view counts authors exactly across repositories).
   */
  readonly authors?: 'top' | 'all';
  /** Only commits authored from this time (ISO 8601) are judged; earlier ones still feed the baselines. */
  readonly since?: string;
  /**
   * False skips the lines at HEAD and their survival (`--no-lines`); the configuration's
   * `lines.enabled` otherwise decides.
   * @since 1.9
   */
  readonly lines?: boolean;
  /**
   * False: a whole history's line pass is neither read from nor kept in the cache between analyses
   * (`--no-cache`).
   * @since 1.15
   */
  readonly cache?: boolean;
}

export interface WebsiteRequest {
  readonly kind: 'website';
  readonly url: string;
}

/**
 * The request `prepareRequest` taps refine before the source is fetched.
 * @since 1.6
 */
export type AnalysisRequest = RepositoryRequest | WebsiteRequest;
