import { Worker, type MessagePort } from 'node:worker_threads';
import type { AnalysisRequest, AnalyzeOptions, EmittedEvent, ResultCache } from '@cadence-detect/engine';
import { CadenceError, isOperationalCode, toCadenceError } from '@cadence-detect/errors';
import type { Logger } from '@cadence-detect/logger';
import type { AnalysisResult, JobInfo, ReportOutcome } from '@cadence-detect/plugin-sdk';
import type { JobEngine } from './job-engine.js';

/**
 * The young generation of an analysis thread, in MiB (V8's 16 MiB semi-spaces make it 48): an
 * analysis streams hundreds of megabytes of git output through short-lived strings, and an
 * analysis thread of the 50,000-commit benchmark history peaked at 294 to 296 MiB (the whole
 * process) with it against 306 to 320 MiB with V8's, in the same time (docs/deploy.md).
 */
export const ANALYSIS_YOUNG_GENERATION_MB = 12;

export type { JobEngine } from './job-engine.js';

/**
 * Where the analysis threads come from: a module that, run as a worker thread with `data` as its
 * workerData, builds an engine the way the host does and calls `serveAnalysisThread` (the host's
 * engine-thread module, given the configuration the server resolved, as data).
 */
export interface AnalysisThreadsSpec {
  readonly module: URL;
  readonly data: unknown;
}

/** How long an aborted analysis may take to unwind before its thread is terminated and replaced. */
const UNWIND_MS = 2000;

type ToThread =
  | {
      type: 'analyze';
      id: number;
      request: AnalysisRequest;
      network: AnalyzeOptions['network'];
      allowLocalPaths: boolean;
      cached: boolean;
      job: JobInfo | null;
      gitAuthorization: AnalyzeOptions['gitAuthorization'] | null;
    }
  | { type: 'abort'; id: number; code: string; message: string }
  | { type: 'cache-value'; id: number; result: AnalysisResult | undefined };

type FromThread =
  | { type: 'ready' }
  | { type: 'event'; id: number; event: EmittedEvent }
  | { type: 'cache-get'; id: number; key: string }
  | { type: 'cache-set'; key: string; result: AnalysisResult }
  | { type: 'done'; id: number; result: AnalysisResult }
  | { type: 'failed'; id: number; code: string; message: string }
  | { type: 'report'; id: number; outcome: ReportOutcome };

interface Running {
  readonly id: number;
  readonly options: AnalyzeOptions;
  resolve(result: AnalysisResult): void;
  reject(error: unknown): void;
}

/**
 * Analyses in worker threads (the memory backend's workers): the HTTP event loop never runs one,
 * and a strategy stuck in synchronous code is stopped by its budget: when an aborted analysis has
 * not unwound within 2 s, its thread is terminated and a fresh one takes its place.
 * One analysis per thread at a time; the job manager runs at most `size` at once.
 */
export class AnalysisThreadPool implements JobEngine {
  private readonly idle: ThreadSlot[] = [];
  private readonly waiters: ((slot: ThreadSlot) => void)[] = [];
  private nextId = 0;
  private closed = false;

  /** Threads made so far: one is made when a job needs it (a server that runs no job loads no engine twice). */
  private created = 0;

  constructor(
    private readonly spec: AnalysisThreadsSpec,
    private readonly size: number,
    private readonly logger: Logger,
  ) {}

  async analyze(request: AnalysisRequest, options: AnalyzeOptions): Promise<AnalysisResult> {
    const slot = await this.take();
    try {
      return await slot.run(++this.nextId, request, options);
    } finally {
      this.give(slot.alive ? slot : this.spawn());
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.allSettled(this.idle.splice(0).map((slot) => slot.terminate()));
  }

  private spawn(): ThreadSlot {
    return new ThreadSlot(
      new Worker(this.spec.module, {
        workerData: this.spec.data,
        resourceLimits: { maxYoungGenerationSizeMb: ANALYSIS_YOUNG_GENERATION_MB },
      }),
      this.logger,
    );
  }

  private take(): Promise<ThreadSlot> {
    const slot = this.idle.pop();
    if (slot) return Promise.resolve(slot);
    if (this.created < this.size) {
      this.created++;
      return Promise.resolve(this.spawn());
    }
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  private give(slot: ThreadSlot): void {
    if (this.closed) {
      void slot.terminate();
      return;
    }
    const waiter = this.waiters.shift();
    if (waiter) waiter(slot);
    else this.idle.push(slot);
  }
}

class ThreadSlot {
  alive = true;
  private running: Running | null = null;
  private readonly reportSinks = new Map<number, (outcome: ReportOutcome) => void>();
  private readonly ready: Promise<void>;

  constructor(
    private readonly worker: Worker,
    private readonly logger: Logger,
  ) {
    this.ready = new Promise((resolve, reject) => {
      worker.once('message', (message: FromThread) =>
        message.type === 'ready' ? resolve() : reject(new Error('analysis thread did not start')),
      );
      worker.once('error', reject);
    });
    // An unused thread must not keep the process alive.
    worker.unref();
    // Marked handled now: every caller awaits it and meets its failure there.
    void this.ready.catch(() => undefined);
    worker.on('message', (message: FromThread) => this.receive(message));
    worker.on('error', (error) => {
      // A thread that threw out of its event loop is going away: it never serves another job, though
      // 'exit' comes later, after the job's run has already been given back.
      this.alive = false;
      this.fail(new CadenceError('ERR_INTERNAL', { message: `analysis thread failed: ${error.message}` }));
    });
    worker.on('exit', () => {
      this.alive = false;
      this.fail(new CadenceError('ERR_INTERNAL', { message: 'analysis thread exited' }));
    });
  }

  async run(id: number, request: AnalysisRequest, options: AnalyzeOptions): Promise<AnalysisResult> {
    const onReport = options.onReport;
    if (onReport) {
      this.reportSinks.set(id, onReport);
      // Reporters are bounded by the job's time; a sink is dropped a minute after it.
      const keep = Math.max(0, (options.job?.deadline ?? Date.now()) - Date.now()) + 60_000;
      setTimeout(() => this.reportSinks.delete(id), keep).unref();
    }
    await this.ready;
    this.worker.ref();
    try {
      return await new Promise<AnalysisResult>((resolve, reject) => {
        this.running = { id, options, resolve, reject };
        const signal = options.signal;
        const onAbort = (): void => {
          const reason = toCadenceError(signal?.reason);
          this.post({ type: 'abort', id, code: reason.code, message: reason.message });
          // A thread that does not unwind (synchronous code that never yields) is stopped here.
          setTimeout(() => {
            if (this.running?.id !== id) return;
            this.logger.warn('analysis thread did not stop; terminated', { error_code: reason.code });
            this.fail(reason);
            void this.terminate();
          }, UNWIND_MS).unref();
        };
        if (signal?.aborted) onAbort();
        else signal?.addEventListener('abort', onAbort, { once: true });
        this.post({
          type: 'analyze',
          id,
          request,
          network: options.network,
          allowLocalPaths: options.allowLocalPaths,
          cached: options.cache !== undefined,
          job: options.job ?? null,
          gitAuthorization: options.gitAuthorization ?? null,
        });
      });
    } finally {
      this.running = null;
      this.worker.unref();
    }
  }

  terminate(): Promise<number> {
    this.alive = false;
    return this.worker.terminate();
  }

  private post(message: ToThread): void {
    this.worker.postMessage(message);
  }

  private receive(message: FromThread): void {
    if (message.type === 'report') {
      // Reporters finish after the analysis: their sink outlives the run.
      this.reportSinks.get(message.id)?.(message.outcome);
      return;
    }
    const running = this.running;
    if (!running) return;
    switch (message.type) {
      case 'event':
        if (message.id === running.id) running.options.onEvent?.(message.event);
        break;
      case 'cache-get':
        void Promise.resolve(running.options.cache?.get(message.key))
          // A cache that cannot answer is a miss: the thread analyses.
          .catch(() => undefined)
          .then((result) => this.post({ type: 'cache-value', id: message.id, result }));
        break;
      case 'cache-set':
        // A result not kept is a later miss, not this job's failure.
        void Promise.resolve(running.options.cache?.set(message.key, message.result)).catch(() => undefined);
        break;
      case 'done':
        if (message.id === running.id) running.resolve(message.result);
        break;
      case 'failed':
        if (message.id === running.id) {
          running.reject(
            new CadenceError(isOperationalCode(message.code) ? message.code : 'ERR_INTERNAL', {
              message: message.message,
            }),
          );
        }
        break;
    }
  }

  private fail(error: CadenceError): void {
    const running = this.running;
    this.running = null;
    running?.reject(error);
  }
}

/**
 * The thread side: runs each analysis the pool sends with the engine the thread built, forwarding
 * events, cache reads and writes, and the outcome. Aborts arrive as messages.
 */
export function serveAnalysisThread(port: MessagePort, engine: JobEngine): void {
  const controllers = new Map<number, AbortController>();
  const cacheReads = new Map<number, (result: AnalysisResult | undefined) => void>();
  port.on('message', (message: ToThread) => {
    if (message.type === 'abort') {
      controllers.get(message.id)?.abort(
        new CadenceError(isOperationalCode(message.code) ? message.code : 'ERR_CANCELLED', {
          message: message.message,
        }),
      );
      return;
    }
    if (message.type === 'cache-value') {
      cacheReads.get(message.id)?.(message.result);
      cacheReads.delete(message.id);
      return;
    }
    const { id } = message;
    const controller = new AbortController();
    controllers.set(id, controller);
    const cache: ResultCache | undefined = message.cached
      ? {
          get: (key) =>
            new Promise((resolve) => {
              cacheReads.set(id, resolve);
              port.postMessage({ type: 'cache-get', id, key } satisfies FromThread);
            }),
          set: (key, result) => port.postMessage({ type: 'cache-set', key, result } satisfies FromThread),
        }
      : undefined;
    engine
      .analyze(message.request, {
        signal: controller.signal,
        network: message.network,
        allowLocalPaths: message.allowLocalPaths,
        onEvent: (event) => port.postMessage({ type: 'event', id, event } satisfies FromThread),
        ...(message.job
          ? {
              job: message.job,
              onReport: (outcome: ReportOutcome) =>
                port.postMessage({ type: 'report', id, outcome } satisfies FromThread),
            }
          : {}),
        ...(cache ? { cache } : {}),
        ...(message.gitAuthorization ? { gitAuthorization: message.gitAuthorization } : {}),
      })
      .then(
        (result) => port.postMessage({ type: 'done', id, result } satisfies FromThread),
        (error: unknown) => {
          const failure = toCadenceError(error);
          port.postMessage({ type: 'failed', id, code: failure.code, message: failure.message } satisfies FromThread);
        },
      )
      .finally(() => controllers.delete(id));
  });
  port.postMessage({ type: 'ready' } satisfies FromThread);
}
