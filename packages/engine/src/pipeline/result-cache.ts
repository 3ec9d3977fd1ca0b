import type { AnalysisResult, PluginConfigView } from '@cadence-detect/plugin-sdk';
import { frozenCopy } from '../frozen-view.js';
import type { PreparedSource } from '../prepared-source.js';
import { buildContext } from './analysis-context.js';
import type { EngineParts } from './engine-parts.js';
import type { RunContext } from './run-context.js';

/**
 * A kept result for this source, or undefined. A shared cache that cannot answer (Redis away) is a
 * miss, never a failed analysis. A job answered from the cache is still reported where its forge
 * expects it; the source is disposed of then.
 */
export async function answerFromCache(
  parts: EngineParts,
  key: string,
  source: PreparedSource,
  run: RunContext,
): Promise<AnalysisResult | undefined> {
  // A cache that cannot answer (Redis away) is a miss, never a failed analysis.
  const cached = await Promise.resolve(run.options.cache?.get(key)).catch(() => undefined);
  if (!cached) return undefined;
  if (run.job) {
    const view: PluginConfigView = frozenCopy(parts.pluginConfig);
    await parts.hooks.report.promise(
      cached,
      buildContext(source, {
        signal: run.signal,
        view,
        thresholds: view.thresholds,
        emit: () => undefined,
        logger: parts.log,
        job: run.job,
        recordReport: run.recordReport,
      }),
    );
  }
  // The kept result stands; a temporary folder left behind is the OS's to clean.
  await source.dispose().catch(() => undefined);
  return cached;
}

/**
 * Keeps a result for the next identical analysis. Not kept: a result a plugin kept out
 * (`context.keepOutOfCache`: the AI plugin does when its provider failed), or whose lines were
 * dropped for time or failed (the lines, and the commit model's reading of the added code, are
 * missing from it; both failures are usually transient).
 */
export function keepResult(key: string | undefined, result: AnalysisResult, run: RunContext): void {
  if (!key || run.cacheRefusals.length > 0 || linesFellShort(result)) return;
  // Not awaited: a cache that cannot store is a later miss, not this analysis's failure.
  void Promise.resolve(run.options.cache?.set(key, result)).catch(() => undefined);
}

/** Lines that were asked for and did not come: dropped for time, or a failure (not `--no-lines` or `lines.enabled: false`). */
function linesFellShort(result: AnalysisResult): boolean {
  const skipped = 'lines_skipped' in result ? result.lines_skipped : undefined;
  return (
    typeof skipped === 'string' &&
    (skipped.startsWith("the job's time ran short") || skipped.startsWith('lines could not be counted'))
  );
}
