import { createHash } from 'node:crypto';
import type { AnalysisEvent } from '@cadence-detect/plugin-sdk';
import { fetchPage, parseDocumentInWorker, parseWebsiteUrl } from '@cadence-detect/web-source';
import type { AnalysisRequest, AnalyzeOptions } from '../analysis-request.js';
import type { EngineConfig } from '../engine-config.js';
import type { EngineLogger } from '../engine-logger.js';
import type { PreparedWebsite } from '../prepared-source.js';
import { redactUrl } from './redact-url.js';

interface AcquireOptions extends AnalyzeOptions {
  readonly signal: AbortSignal;
  readonly emit: (event: AnalysisEvent) => void;
  readonly config: EngineConfig;
  readonly logger: EngineLogger;
}

/** Fetches and parses the page: the source the website strategies run on. */
export async function acquireWebsite(
  request: Extract<AnalysisRequest, { kind: 'website' }>,
  options: AcquireOptions,
): Promise<PreparedWebsite> {
  const { signal, emit, config } = options;
  const url = parseWebsiteUrl(request.url, { allowLocalPaths: options.allowLocalPaths });
  emit({ event: 'start', url: redactUrl(request.url) });
  emit({ event: 'fetch', message: `fetching ${redactUrl(url.toString())}` });
  const page = await fetchPage(url, {
    policy: options.network,
    maxBytes: config.limits.max_page_bytes,
    timeoutMs: config.limits.fetch_timeout_seconds * 1000,
    signal,
  });
  emit({ event: 'fetch', message: `fetched ${page.bytes} bytes (${page.status}, ${page.contentType})` });
  // Off the event loop: a large or deeply nested page parses for hundreds of milliseconds.
  const document = await parseDocumentInWorker(page.body, {
    url: page.finalUrl,
    contentType: page.contentType,
    signal,
  });
  emit({ event: 'parse', elements: document.elements });
  return {
    kind: 'website',
    info: {
      url: redactUrl(request.url),
      finalUrl: redactUrl(page.finalUrl),
      contentType: page.contentType,
      bytes: page.bytes,
    },
    document,
    contentDigest: createHash('sha256').update(page.body).digest('hex'),
    dispose: async () => undefined,
  };
}
