import type { AnalysisResult } from '@cadence-detect/plugin-sdk';
import type { AnalysisRequest, AnalyzeOptions } from '../analysis-request.js';
import { cacheKeyOf } from '../cache-key.js';
import { acquireSource } from './acquire.js';
import { analyzeSource } from './analyze-source.js';
import type { EngineParts } from './engine-parts.js';
import { announceFailure, announceStart } from './job-events.js';
import { prepareRequest } from './prepare.js';
import { answerFromCache } from './result-cache.js';
import { startRun } from './run-context.js';

/**
 * One analysis, stage by stage: the job announced, the request prepared, the source acquired, a
 * kept result used when there is one, else the source analysed. A job that ends without a result
 * is announced as failed (its reporters turn `pending` into an error) and the error goes on.
 */
export async function runAnalysis(
  parts: EngineParts,
  request: AnalysisRequest,
  options: AnalyzeOptions,
): Promise<AnalysisResult> {
  const run = startRun(options);
  announceStart(parts, request, run);
  try {
    const prepared = await prepareRequest(parts, request, run);
    const acquired = await acquireSource(parts, prepared, run, options);
    if ('cached' in acquired) return acquired.cached;
    const key = cacheKeyOf(prepared, acquired.source, parts.fingerprint);
    const cached = await answerFromCache(parts, key, acquired.source, run);
    if (cached) return cached;
    const repository = prepared.kind === 'repository' ? prepared : null;
    return await analyzeSource(parts, acquired.source, run, {
      thresholds: repository?.thresholds,
      cacheKey: key,
      authors: repository?.authors,
    });
  } catch (error) {
    announceFailure(parts, error, run);
    throw error;
  }
}
