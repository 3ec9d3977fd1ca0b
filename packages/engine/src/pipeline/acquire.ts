import type { AddedLinesReader, AnalysisResult, RepositoryStrategy } from '@cadence-detect/plugin-sdk';
import type { AnalysisRequest, AnalyzeOptions } from '../analysis-request.js';
import { repositoryCacheKey } from '../cache-key.js';
import { asJobError } from '../cancellation.js';
import type { PreparedRepository, PreparedSource } from '../prepared-source.js';
import { acquireRepository } from '../sources/repository-source.js';
import type { EngineParts } from './engine-parts.js';
import type { RunContext } from './run-context.js';

/**
 * The source made ready: a repository cloned (or fetched into its mirror) and its history read, or
 * a page fetched and parsed. A repository whose head a kept result already covers may answer with
 * that result instead.
 */
export async function acquireSource(
  parts: EngineParts,
  request: AnalysisRequest,
  run: RunContext,
  options: AnalyzeOptions,
): Promise<{ readonly source: PreparedSource } | { readonly cached: AnalysisResult }> {
  const common = { ...options, signal: run.signal, emit: run.emit, config: parts.config };
  try {
    if (request.kind === 'repository') {
      // Without a job to report to, a kept result answers as soon as the head is known: an
      // unchanged repository (a second scan) costs a fetch, not a history read.
      const cache = options.cache;
      const early =
        cache && !run.job
          ? (info: PreparedRepository['info']) =>
              // A cache that cannot answer is a miss: the history is read.
              Promise.resolve(cache.get(repositoryCacheKey(request, info, parts.fingerprint))).catch(() => undefined)
          : undefined;
      const acquired = await acquireRepository(request, {
        ...common,
        excludeFiles: parts.pluginConfig.exclude_files,
        logger: parts.gitLog,
        readers: addedLinesReaders(parts),
        ...(early ? { answerFromCache: early } : {}),
      });
      return acquired.kind === 'cached' ? { cached: acquired.result } : { source: acquired };
    }
    // Imported for a website only: the HTML parser and the page fetcher are no repository's cost.
    const { acquireWebsite } = await import('../sources/website-source.js');
    return { source: await acquireWebsite(request, { ...common, logger: parts.log }) };
  } catch (error) {
    throw asJobError(error, run.signal);
  }
}

/** What the enabled repository strategies read of each commit's added lines. */
function addedLinesReaders(parts: EngineParts): AddedLinesReader[] {
  return parts.enabled
    .filter((r) => r.info.appliesTo === 'repository')
    .flatMap((r) => {
      const reader = (r.strategy as RepositoryStrategy).addedLines;
      return reader ? [reader] : [];
    });
}
