import { errorMessage } from '@cadence-detect/errors';
import type { EngineHooks, Forge, ForgeTarget, PluginLogger } from '@cadence-detect/plugin-sdk';

/** A request whose squash commit a push carried, as the forge's API names it. */
export interface SquashFound {
  readonly number: number;
  /** refs/pull/N/head, refs/merge-requests/N/head: where its original commits still are in the base repository. */
  readonly ref: string;
  /** The request's head commit (full hash). */
  readonly head: string;
}

/** Asks the forge which request, if any, a pushed commit squashes (null: none, or the forge cannot say). */
export type SquashLookup = (target: ForgeTarget, signal: AbortSignal) => Promise<SquashFound | null>;

/** A forge that cannot answer within this long leaves the push as it is (docs/forges.md, Squash merges). */
export const SQUASH_LOOKUP_MS = 10_000;

/**
 * Taps `prepareRequest` with a forge's squash look-up, for that forge's jobs only: a push
 * of one commit onto a branch (`squash_candidate`, set by the intake) with a range is asked of the
 * forge; when the forge names the request it squashes, the request gains `squash` and the engine
 * judges the request's original commits when they can still be fetched. The forge's answer, never the
 * subject's `(#N)` (anyone can write one). A look-up that fails or takes longer than 10 s is logged
 * and the push is judged as it is.
 * @since 1.6
 */
export function tapSquashLookup(
  hooks: EngineHooks,
  tap: { readonly name: string; readonly forge: Forge; readonly logger: PluginLogger },
  lookup: SquashLookup,
): void {
  hooks.prepareRequest.tapPromise(tap.name, async (request, { job, signal }) => {
    const target = job?.forge;
    if (
      request.kind !== 'repository' ||
      !request.squash_candidate ||
      !request.range ||
      !target ||
      target.forge !== tap.forge
    )
      return request;
    try {
      const found = await lookup(target, AbortSignal.any([signal, AbortSignal.timeout(SQUASH_LOOKUP_MS)]));
      if (!found) return request;
      tap.logger.info('push squashes a request', { job_id: job.id, request: found.number });
      return { ...request, squash: { commit: target.sha, request: found.number, ref: found.ref, head: found.head } };
    } catch (error) {
      tap.logger.warn('squash look-up failed; the push is judged as it is', {
        job_id: job.id,
        error: errorMessage(error).slice(0, 200),
      });
      return request;
    }
  });
}
