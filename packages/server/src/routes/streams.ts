import { Router } from '../vendor/koa.js';
import type { Context, Middleware } from 'koa';
import { HttpError } from '@cadence-detect/errors';
import { isEndEvent, type JobEventChannel } from '../jobs/job-events.js';
import type { JobStore } from '../jobs/job-store.js';
import { JobFeed } from '../jobs/job-feed.js';
import { endEventOf, isFinal } from '../jobs/job.js';
import type { JobManager, NewJob } from '../jobs/job-manager.js';
import { API_BODY_LIMIT, jsonBody, requireContentType } from '../middleware/body.js';
import { repositoryJob, websiteJob } from '../analysis-targets.js';
import { RepositoryBody, WebsiteBody, validated } from '../request-validation.js';
import { SseStream } from '../streams/sse-stream.js';
import type { RegisterRoutes } from './route-module.js';
import { pathParameter } from './path-parameter.js';

export interface StreamRouteOptions {
  readonly jobs: JobManager;
  readonly store: JobStore;
  readonly events: JobEventChannel;
  /** The job queries rate limit (following a job is reading it). */
  readonly queryLimit: Middleware;
  readonly allowLocalPaths: boolean;
  readonly keepAliveMs: number;
  /** The cross-site check and the analyses rate limit, shared with the analyze routes. */
  readonly guards: readonly Middleware[];
  /** `limits.max_open_streams`: 503 beyond. */
  readonly maxOpenStreams: number;
}

/** Streams (docs/http-api.md): GET with query parameters (Form A) and POST with the analyze body (Form B). */
function streamRoutes(router: Router, options: StreamRouteOptions): void {
  const open = openStreamCap(options.maxOpenStreams);
  const body = [requireContentType(['application/json']), jsonBody(API_BODY_LIMIT)];
  const repository = (input: unknown): NewJob => {
    const { url, branch } = validated(RepositoryBody, input);
    return repositoryJob(url, branch, options.allowLocalPaths, 'stream');
  };
  const website = (input: unknown): NewJob =>
    websiteJob(validated(WebsiteBody, input).url, options.allowLocalPaths, 'stream');

  router.get('/api/stream/repository', ...options.guards, open, (ctx) =>
    stream(ctx, repository(queryObject(ctx)), options),
  );
  router.post('/api/stream/repository', ...options.guards, open, ...body, (ctx) =>
    stream(ctx, repository(ctx.request.body), options),
  );
  router.get('/api/stream/website', ...options.guards, open, (ctx) => stream(ctx, website(queryObject(ctx)), options));
  router.post('/api/stream/website', ...options.guards, open, ...body, (ctx) =>
    stream(ctx, website(ctx.request.body), options),
  );
  router.get('/jobs/:id/events', options.queryLimit, open, (ctx) => follow(ctx, pathParameter(ctx, 'id'), options));
  const feed = new JobFeed(options.store);
  router.get('/events', options.queryLimit, open, (ctx) => feedStream(ctx, feed, options.keepAliveMs));
}

/** GET /events: `job` events, one per change to any of the latest 50 jobs, until the client leaves. */
function feedStream(ctx: Context, feed: JobFeed, keepAliveMs: number): void {
  const sse = new SseStream(ctx, keepAliveMs);
  const unsubscribe = feed.subscribe((job) => sse.send({ event: 'job', type: 'job', job }));
  ctx.res.on('close', () => {
    unsubscribe();
    sse.end();
  });
}

/**
 * GET /jobs/:id/events: follows a job that already exists, wherever it runs: the events it had
 * so far (those the channel still keeps), then each new one, ending with `complete` or `error`. A
 * finished job whose events are no longer kept gets its end event from the store. Leaving does not
 * cancel the job (only the stream that started one does).
 */
async function follow(ctx: Context, jobId: string, options: StreamRouteOptions): Promise<void> {
  const job = await options.store.get(jobId);
  if (!job) throw HttpError.notFound(`No job ${jobId}`);
  const sse = new SseStream(ctx, options.keepAliveMs);
  let ended = false;
  let unsubscribe: () => void = () => undefined;
  const end = (): void => {
    ended = true;
    unsubscribe();
    sse.end();
  };
  unsubscribe = options.events.subscribe(jobId, (event) => {
    if (ended) return;
    sse.send(event);
    if (isEndEvent(event)) end();
  });
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- Set in a callback TypeScript does not follow
  if (ended) {
    unsubscribe();
    return;
  }
  ctx.res.on('close', end);
  if (isFinal(job.status)) {
    // Replayed events arrive first (Redis answers within a moment); without them the store has the end.
    setTimeout(() => {
      if (!ended) {
        sse.send(endEventOf(job));
        end();
      }
    }, 250).unref();
  }
}

/**
 * Each open stream holds a socket and a job's subscription for as long as the job runs: past
 * `max` at once the answer is 503 (docs/http-api.md, Conventions). A slot is held from the request's start to the
 * response's close, whatever ended it.
 */
function openStreamCap(max: number): Middleware {
  let open = 0;
  return async (ctx, next) => {
    if (open >= max) {
      throw new HttpError(
        503,
        'overloaded',
        `${max} streams are open; retry later or poll POST /api/analyze/* instead`,
        {
          extra: { retry_after: 5 },
          headers: { 'Retry-After': '5' },
        },
      );
    }
    open++;
    let released = false;
    const release = (): void => {
      if (!released) {
        released = true;
        open--;
      }
    };
    ctx.res.once('close', release);
    try {
      await next();
    } catch (error) {
      release();
      throw error;
    }
  };
}

function queryObject(ctx: Context): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(ctx.query)) {
    if (Array.isArray(value)) throw HttpError.invalidRequest(key, 'given more than once');
    if (typeof value === 'string') out[key] = value;
  }
  return out;
}

async function stream(ctx: Context, spec: NewJob, options: StreamRouteOptions): Promise<void> {
  let sse: SseStream | null = null;
  let unsubscribe: (() => void) | null = null;
  let jobId: string | null = null;
  // Errors before this point (validation, overload) are ordinary error responses.
  try {
    await options.jobs.submit(spec, (job) => {
      jobId = job.id;
      sse = new SseStream(ctx, options.keepAliveMs);
      const out = sse;
      unsubscribe = options.events.subscribe(job.id, (event) => {
        out.send(event);
        if (event.event === 'complete' || event.event === 'error') {
          unsubscribe?.();
          out.end();
        }
      });
    });
  } catch (error) {
    // Refused after subscribing (the queue filled meanwhile): no job, no subscription or stream left behind.
    (unsubscribe as (() => void) | null)?.();
    (sse as SseStream | null)?.end();
    throw error;
  }
  // A client that goes away cancels the analysis it started (docs/http-api.md, The job).
  // (The response's close, not the request's: a request closes as soon as its body was read.)
  ctx.res.on('close', () => {
    if (sse && !ctx.res.writableFinished && jobId) {
      unsubscribe?.();
      sse.end();
      // The client left: a job already ended needs no cancel, and nobody is left to tell.
      void options.jobs.cancel(jobId).catch(() => undefined);
    }
  });
}

/** The SSE streams, behind the token. */
export const register: RegisterRoutes<'config' | 'jobs' | 'backends' | 'guards'> = (
  { guarded },
  { config, jobs, backends, guards },
) => {
  streamRoutes(guarded, {
    jobs,
    store: backends.store,
    queryLimit: guards.queryLimit,
    events: backends.events,
    allowLocalPaths: config.security.allow_local_paths,
    keepAliveMs: config.limits.stream_keepalive_seconds * 1000,
    guards: guards.startsJobs,
    maxOpenStreams: config.limits.max_open_streams,
  });
};
