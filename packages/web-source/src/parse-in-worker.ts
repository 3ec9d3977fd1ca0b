import { Worker } from 'node:worker_threads';
import { abortError, CadenceError, errorCode, errorMessage } from '@cadence-detect/errors';
import type { PageDocument } from '@cadence-detect/plugin-sdk';
import { fromWire, type WireDocument } from './document-wire.js';
import type { ParseOptions } from './parse-document.js';

export interface WorkerInput {
  readonly body: string;
  readonly url: string;
  readonly contentType: string;
}

export interface WorkerParseOptions extends ParseOptions {
  /** Stops the parse: the worker is terminated and the promise rejects with the signal's reason. */
  readonly signal?: AbortSignal;
  /** Heap of the worker's old generation; a page that needs more fails with ERR_OUT_OF_MEMORY. */
  readonly maxHeapMb?: number;
}

/**
 * Heap for one parse. A 10 MiB page (the default page cap) needs about a quarter of this; the bound
 * keeps a page built to bloat the tree from taking the server's memory with it.
 */
export const DEFAULT_PARSE_HEAP_MB = 1024;

// The worker is built JavaScript next to this module. Under tsx (the tests run the sources) this
// module is src/parse-in-worker.ts and a worker cannot load TypeScript, so it runs the build in dist.
const WORKER_URL = new URL(
  import.meta.url.endsWith('.ts') ? '../dist/parse-worker.js' : './parse-worker.js',
  import.meta.url,
);

/**
 * parseDocument on a worker thread of its own: parse5 and the walk cost hundreds of milliseconds on
 * a large or hostile page, time the server's event loop (its /health, its other requests) must not
 * lose. One worker per parse: nothing to share between jobs, and terminating it on abort or a crash
 * leaves nothing behind.
 */
export function parseDocumentInWorker(body: string, options: WorkerParseOptions): Promise<PageDocument> {
  const { signal } = options;
  if (signal?.aborted) return Promise.reject(abortError(signal));
  const input: WorkerInput = { body, url: options.url, contentType: options.contentType };
  const worker = new Worker(WORKER_URL, {
    workerData: input,
    resourceLimits: { maxOldGenerationSizeMb: options.maxHeapMb ?? DEFAULT_PARSE_HEAP_MB },
  });
  return new Promise<PageDocument>((resolve, reject) => {
    let settled = false;
    const settle = (outcome: () => void): void => {
      if (settled) return;
      settled = true;
      signal?.removeEventListener('abort', onAbort);
      void worker.terminate();
      outcome();
    };
    const onAbort = (): void => {
      if (signal) settle(() => reject(abortError(signal)));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    worker.once('message', (wire: WireDocument) => settle(() => resolve(fromWire(wire))));
    worker.once('error', (error) => settle(() => reject(workerFailure(error))));
    worker.once('exit', (code) =>
      settle(() =>
        reject(
          new CadenceError('ERR_INTERNAL', {
            message: `The page parser stopped (exit code ${code}) without a document`,
          }),
        ),
      ),
    );
  });
}

function workerFailure(error: unknown): CadenceError {
  const code = errorCode(error);
  if (code === 'ERR_WORKER_OUT_OF_MEMORY')
    return new CadenceError('ERR_OUT_OF_MEMORY', {
      message: 'Parsing the page needed more memory than a parse may use',
      cause: error,
    });
  return new CadenceError('ERR_INTERNAL', {
    message: `Parsing the page failed: ${errorMessage(error)}`,
    cause: error,
  });
}
