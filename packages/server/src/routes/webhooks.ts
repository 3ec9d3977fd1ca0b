import { Router } from '../vendor/koa.js';
import type { Context, Middleware } from 'koa';
import compose from 'koa-compose';
import { checkBranchName, parseRepositoryUrl, type RepositoryLocator } from '@cadence-detect/git-source';
import { LRUCache } from 'lru-cache';
import type { JobManager, NewJob } from '../jobs/job-manager.js';
import { WEBHOOK_BODY_LIMIT } from '../middleware/body.js';
import { rateLimit } from '../middleware/rate-limit.js';
import type { RateLimiterAbstract } from '../vendor/rate-limiter-flexible.js';
import type { Engine } from '@cadence-detect/engine';
import type { Logger } from '@cadence-detect/logger';
import {
  type ForgeIntake,
  type WebhookDelivery,
  type WebhookPush,
  type WebhookSecret,
} from '@cadence-detect/plugin-sdk';
import { hubSignatureKey } from '@cadence-detect/forge-kit';
import type { JobSource } from '../jobs/job.js';
import { rawWebhookBody, webhookBytes, webhookPayload } from '../webhooks/webhook-body.js';
import type { RegisterRoutes } from './route-module.js';
import { UnverifiedBytes } from '../webhooks/unverified-bytes.js';

export interface WebhookRouteOptions {
  readonly secret: string | null;
  readonly jobs: JobManager;
  readonly limiter: RateLimiterAbstract;
  /**
   * The cross-site refusal of the routes that start jobs (refuseCrossSite): a browser on another
   * site must not reach a webhook either (a form POST to an instance without a secret would start
   * a job). Forges send neither Sec-Fetch-Site nor Origin, so it never refuses them.
   */
  readonly crossSite: Middleware;
  /** What unauthenticated bodies may buffer, all together. */
  readonly unverifiedBytes: UnverifiedBytes;
  readonly allowLocalPaths: boolean;
  /** The forges' intakes by forge name (forgeIntakes): each is served at `/webhooks/<name>`. */
  readonly forges: ReadonlyMap<string, ForgeIntake>;
}

/**
 * The forges plugins declare (`plugin.forge`), each intake built once from its plugin's options. The
 * server knows no forge's wire format: verifying a delivery and reading its payload are the plugin's.
 */
function forgeIntakes(plugins: ReturnType<Engine['plugins']>, logger: Logger): Map<string, ForgeIntake> {
  const intakes = new Map<string, ForgeIntake>();
  for (const loaded of plugins) {
    const forge = loaded.plugin.forge;
    if (!forge) continue;
    if (!FORGE_NAME.test(forge.name))
      throw new Error(
        `The plugin ${loaded.plugin.name} declares the forge "${forge.name}": a forge's name is lower-case letters, digits and dashes`,
      );
    if (intakes.has(forge.name))
      throw new Error(
        `Two plugins declare the forge "${forge.name}" (the second is ${loaded.plugin.name}): load one of them`,
      );
    intakes.set(forge.name, forge.intake({ options: loaded.options ?? {}, logger: logger.child(loaded.plugin.name) }));
  }
  return intakes;
}

const FORGE_NAME = /^[a-z0-9][a-z0-9-]{0,39}$/;

/**
 * Forges' pushes and requests become jobs (docs/http-api.md, Webhooks); the request never waits for the clone.
 *
 * Each forge's chain (cross-site refusal, rate limit, body, handler) is registered on `router` at
 * `/webhooks/<forge>`, which answers every spelling the router accepts (case, a trailing slash) and
 * 405 for other methods. The returned middleware serves the same chains for a POST to the exact path
 * before any router runs: a forge always sends that, and the router's per-request work (matching
 * every route, composing the matched chain anew, parameters) is a large share of a webhook's own
 * cost (docs/deploy.md, Sizing).
 */
function webhookRoutes(router: Router, options: WebhookRouteOptions): Middleware {
  // Counted before the signature check: a flood of bad signatures is cheap to refuse.
  const limit = rateLimit(options.limiter);
  const body = rawWebhookBody(WEBHOOK_BODY_LIMIT, options.unverifiedBytes, [
    'application/json',
    'application/x-www-form-urlencoded',
  ]);
  // The secret as a token compares it, and as the key every HMAC is computed with: made once.
  const secret: WebhookSecret | null =
    options.secret === null ? null : { text: options.secret, key: hubSignatureKey(options.secret) };
  const chains = new Map<string, Middleware>();
  for (const [name, intake] of options.forges) {
    const source = `webhook:${name}` as const;
    const handler: Middleware = async (ctx) => {
      const delivery = new KoaDelivery(ctx);
      if (secret !== null) intake.verify(delivery, secret);
      const outcome = intake.parse(delivery);
      if (outcome.kind === 'push') return answerPush(ctx, outcome.push, source, options);
      ctx.status = 200;
      ctx.body =
        outcome.kind === 'ping'
          ? { ok: true, event: 'ping' }
          : outcome.kind === 'ignored-event'
            ? { ignored: true, event: outcome.event }
            : { ignored: true, reason: outcome.reason };
    };
    chains.set(`/webhooks/${name}`, compose([options.crossSite, limit, body, handler]));
  }
  for (const [path, chain] of chains) router.post(path, chain);
  return (ctx, next) => {
    const chain = ctx.method === 'POST' ? chains.get(ctx.path) : undefined;
    // eslint-disable-next-line @typescript-eslint/no-unsafe-return -- koa-compose's chain answers Promise<any>: a middleware's result is never read
    return chain ? chain(ctx, next) : next();
  };
}

/** A delivery as a forge's intake reads it: headers, the bytes as sent, the payload parsed once. */
class KoaDelivery implements WebhookDelivery {
  private parsed: Record<string, unknown> | undefined;
  constructor(private readonly ctx: Context) {}
  header(name: string): string {
    return this.ctx.get(name);
  }
  get body(): Buffer {
    return webhookBytes(this.ctx);
  }
  payload(): Record<string, unknown> {
    return (this.parsed ??= webhookPayload(this.ctx));
  }
}

/**
 * A forge sends the same few clone URLs over and over: each is parsed (by the URL rules of
 * docs/git-source.md and docs/deploy.md) once, and the parts, which depend on nothing but the string, reused. Local paths
 * are parsed every time, as what they name can change; a refused URL is refused every time.
 */
const remoteRepositories = new LRUCache<string, RepositoryLocator>({ max: 1000 });

function repositoryOf(url: string, allowLocalPaths: boolean): RepositoryLocator {
  const known = remoteRepositories.get(url);
  if (known) return known;
  const locator = parseRepositoryUrl(url, { allowLocalPaths });
  if (locator.kind === 'remote') remoteRepositories.set(url, locator);
  return locator;
}

async function answerPush(
  ctx: Context,
  push: WebhookPush,
  source: JobSource,
  options: WebhookRouteOptions,
): Promise<void> {
  const { request, delivery } = push;
  // The clone URL comes from the payload: the same URL rules as an API request.
  const locator = repositoryOf(request.url, options.allowLocalPaths);
  const branch = request.branch ?? null;
  if (branch !== null) checkBranchName(branch);
  const spec: NewJob = { request, source, repo: locator.repo || push.repo, branch, forge: push.forge };
  const { jobId, duplicate } = delivery
    ? await options.jobs.receive(spec, `${source}:${delivery}`)
    : { jobId: (await options.jobs.submit(spec)).id, duplicate: false };
  ctx.status = 202;
  ctx.body = {
    id: jobId,
    job_id: jobId,
    status: 'queued',
    message: duplicate
      ? `Delivery ${delivery} was already received; this is its job`
      : request.ref
        ? 'Request received; analysis of its commits queued'
        : 'Push received; analysis queued',
    ...(duplicate ? { duplicate: true } : {}),
  };
}

/** The forges' webhooks (with webhook.enabled), ahead of both routers: a forge's POST to the exact path skips route matching. */
export const register: RegisterRoutes<'config' | 'engine' | 'logger' | 'backends' | 'jobs' | 'guards'> = (
  { app, open },
  { config, engine, logger, backends, jobs, guards },
) => {
  if (!config.webhook.enabled) return;
  app.use(
    webhookRoutes(open, {
      secret: config.webhook.secret,
      jobs,
      crossSite: guards.crossSite,
      limiter: backends.rateLimiters('webhooks', config.rate_limits.webhooks_per_minute),
      unverifiedBytes: new UnverifiedBytes(config.limits.max_unverified_webhook_bytes),
      allowLocalPaths: config.security.allow_local_paths,
      // Whatever forges the loaded plugins declare: GitHub and GitLab are built-in plugins like any other.
      forges: forgeIntakes(engine.plugins(), logger),
    }),
  );
};
