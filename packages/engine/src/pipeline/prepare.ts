import type { AnalysisRequest } from '../analysis-request.js';
import { asJobError, throwIfCancelled } from '../cancellation.js';
import type { EngineParts } from './engine-parts.js';
import type { RunContext } from './run-context.js';

/**
 * `prepareRequest` taps refine the request before the source is fetched (a forge plugin's squash
 * look-up), in the CLI and the server alike. A tap that throws is the host's flow failing: ERR_INTERNAL.
 */
export async function prepareRequest(
  parts: EngineParts,
  request: AnalysisRequest,
  run: RunContext,
): Promise<AnalysisRequest> {
  if (!parts.hooks.prepareRequest.isUsed()) return request;
  try {
    const prepared = await parts.hooks.prepareRequest.promise(
      request,
      Object.freeze({ job: run.job, signal: run.signal, logger: parts.log }),
    );
    throwIfCancelled(run.signal);
    return prepared;
  } catch (error) {
    throw asJobError(error, run.signal);
  }
}
