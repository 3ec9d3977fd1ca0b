import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { LoadedPlugin } from '@cadence-detect/plugin-loader';
import type { AssessmentBands, PluginConfigView } from '@cadence-detect/plugin-sdk';
import type { AnalysisRequest } from './analysis-request.js';
import type { PreparedRepository, PreparedSource, PreparedWebsite } from './prepared-source.js';
import type { RegisteredStrategy } from './strategy-registry.js';

/** The result cache's keys: what was analysed, how, and under which configuration and plugins. */

/**
 * Anything that changes a result changes the fingerprint: thresholds, globs, the enabled
 * strategies, and every plugin's name, version, resolved options (the AI plugin's settings among
 * them) and data files (a trained
 * model changes results without a new version during development). A shared cache survives
 * restarts, so a result computed under other options must never answer.
 */
export function configFingerprint(
  view: PluginConfigView,
  plugins: readonly LoadedPlugin[],
  strategies: readonly RegisteredStrategy[],
  bands: AssessmentBands,
  linesEnabled = true,
): string {
  const material = JSON.stringify({
    lines: linesEnabled,
    thresholds: view.thresholds,
    bands,
    exclude: view.exclude_files,
    excludeAuthors: view.exclude_authors ?? [],
    plugins: plugins.map((loaded) => ({
      name: loaded.plugin.name,
      package: loaded.packageName,
      version: loaded.version,
      options: loaded.options ?? null,
      data: (loaded.plugin.dataFiles ?? []).map(fileDigest),
    })),
    strategies: strategies.map((s) => `${s.info.package}@${s.info.version}:${s.info.name}`),
  });
  return sha256(material);
}

/** A data file's content hash, read once when the engine is made; a missing file hashes as missing. */
function fileDigest(file: URL): string {
  try {
    return createHash('sha256').update(readFileSync(file)).digest('hex');
  } catch {
    return `missing:${file.href}`;
  }
}

export function cacheKeyOf(request: AnalysisRequest, source: PreparedSource, fingerprint: string): string {
  if (source.kind === 'repository' && request.kind === 'repository')
    return repositoryCacheKey(request, source.info, fingerprint);
  const w = source as PreparedWebsite;
  return sha256(JSON.stringify(['website', w.info.finalUrl, w.contentDigest, fingerprint]));
}

/** A repository result's key: what was analysed (known once the clone or fetch says the head) and how. */
export function repositoryCacheKey(
  request: Extract<AnalysisRequest, { kind: 'repository' }>,
  info: PreparedRepository['info'],
  fingerprint: string,
): string {
  return sha256(
    JSON.stringify([
      'repository',
      info.url,
      info.branch,
      info.headCommit,
      info.range,
      info.squash ?? null,
      request.thresholds ?? null,
      request.authors ?? 'top',
      request.since ?? null,
      // Lines change the result (its lines, and the commit model's reading of the added code).
      request.lines === false ? 'no-lines' : 'lines',
      fingerprint,
    ]),
  );
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}
