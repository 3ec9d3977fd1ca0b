import Router from '@koa/router';
import type { Context, Middleware } from 'koa';
import compose from 'koa-compose';
import { HttpError } from '@cadence-detect/errors';
import { checkBranchName, parseRepositoryUrl, type RepositoryLocator } from '@cadence-detect/git-source';
import { LRUCache } from 'lru-cache';
import type { JobManager, NewJob } from '../jobs/job-manager.js';
import { WEBHOOK_BODY_LIMIT } from '../middleware/body.js';
import { rateLimit } from '../middleware/rate-limit.js';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import type { UnverifiedBytes } from '../webhooks/unverified-bytes.js';
import { constantTimeEqual, hubSignatureKey, verifyHubSignature } from '../webhooks/constant-time.js';
import { githubPullRequest, githubPush, gitlabMergeRequest, gitlabPush, type PushOutcome } from '../webhooks/push-payload.js';
import { rawWebhookBody, webhookBytes, webhookPayload } from '../webhooks/webhook-body.js';

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
  /** Pull and merge request events become jobs where their forge's reporting is configured (docs/http-api.md, POST /webhooks/github). */
  readonly requests: { readonly github: boolean; readonly gitlab: boolean; readonly drafts: boolean };
}

/**
 * Decisions §5: GitHub and GitLab pushes become jobs; the request never waits for the clone.
 *
 * Each path's chain (rate limit, body, handler) is registered on `router`, which answers every
 * spelling the router accepts (case, a trailing slash) and 405 for other methods. The returned
 * middleware serves the same chains for a POST to the exact path before any router runs: a forge
 * always sends that, and the router's per-request work (matching every route, composing the
 * matched chain anew, parameters) was a fifth of the cost of a webhook (docs/deploy.md, Sizing).
 */
export function webhookRoutes(router: Router, options: WebhookRouteOptions): Middleware {
  // Counted before the signature check: a flood of bad signatures is cheap to refuse.
  const limit = rateLimit(options.limiter);
  const body = rawWebhookBody(WEBHOOK_BODY_LIMIT, options.unverifiedBytes, ['application/json', 'application/x-www-form-urlencoded']);
  // The secret as GitLab's token compares it, and as the key every HMAC is computed with.
  const secret = options.secret === null ? null : { token: options.secret, key: hubSignatureKey(options.secret) };

  const github: Middleware = async (ctx) => {
    if (secret !== null) {
      const signature = ctx.get('x-hub-signature-256');
      // A missing header is a webhook set up without its secret: say so, not "verification failed".
      if (!signature) throw new HttpError(401, 'invalid_signature', 'No X-Hub-Signature-256 header: set the webhook\u2019s secret on GitHub to the server\u2019s webhook secret (CADENCE_WEBHOOK_SECRET)');
      if (!verifyHubSignature(webhookBytes(ctx), signature, secret.key)) throw new HttpError(401, 'invalid_signature', 'Webhook signature verification failed: the X-Hub-Signature-256 header does not match the body signed with the server\u2019s webhook secret');
    }
    const event = ctx.get('x-github-event');
    if (event === 'ping') {
      ctx.status = 200;
      ctx.body = { ok: true, event: 'ping' };
      return;
    }
    if (event === 'pull_request' && options.requests.github) {
      await answerPush(ctx, githubPullRequest(webhookPayload(ctx), options.requests), 'webhook:github', ctx.get('x-github-delivery'), options);
      return;
    }
    if (event !== 'push') {
      ctx.status = 200;
      ctx.body = { ignored: true, event: event || null };
      return;
    }
    await answerPush(ctx, githubPush(webhookPayload(ctx)), 'webhook:github', ctx.get('x-github-delivery'), options);
  };

  const gitlab: Middleware = async (ctx) => {
    const signature = ctx.get('x-hub-signature-256');
    if (secret !== null) {
      if (signature) {
        if (!verifyHubSignature(webhookBytes(ctx), signature, secret.key)) throw new HttpError(401, 'invalid_signature', 'Webhook signature verification failed');
      } else if (!constantTimeEqual(ctx.get('x-gitlab-token'), secret.token)) {
        throw new HttpError(403, 'invalid_token', 'The X-Gitlab-Token header does not match the configured secret');
      }
    }
    const event = ctx.get('x-gitlab-event');
    const payload = webhookPayload(ctx);
    const kind = payload.object_kind;
    const delivery = ctx.get('idempotency-key') || ctx.get('x-gitlab-event-uuid');
    if ((/^merge request hook$/i.test(event) || kind === 'merge_request') && options.requests.gitlab) {
      await answerPush(ctx, gitlabMergeRequest(payload, options.requests), 'webhook:gitlab', delivery, options);
      return;
    }
    if (!/^push hook$/i.test(event) && kind !== 'push') {
      ctx.status = 200;
      ctx.body = { ignored: true, event: event || null };
      return;
    }
    await answerPush(ctx, gitlabPush(payload), 'webhook:gitlab', delivery, options);
  };

  const chains = new Map<string, Middleware>([
    ['/webhooks/github', compose([options.crossSite, limit, body, github])],
    ['/webhooks/gitlab', compose([options.crossSite, limit, body, gitlab])],
  ]);
  for (const [path, chain] of chains) router.post(path, chain);
  return (ctx, next) => {
    const chain = ctx.method === 'POST' ? chains.get(ctx.path) : undefined;
    return chain ? chain(ctx, next) : next();
  };
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

async function answerPush(ctx: Context, outcome: PushOutcome, source: 'webhook:github' | 'webhook:gitlab', delivery: string, options: WebhookRouteOptions): Promise<void> {
  if (outcome.kind === 'ignored') {
    ctx.status = 200;
    ctx.body = { ignored: true, reason: outcome.reason };
    return;
  }
  const { push } = outcome;
  // The clone URL comes from the payload: the same URL rules as an API request.
  const locator = repositoryOf(push.cloneUrl, options.allowLocalPaths);
  if (push.branch !== null) checkBranchName(push.branch);
  const spec: NewJob = {
    request: { kind: 'repository', url: push.cloneUrl, branch: push.branch, range: { before: push.before, after: push.after }, ...(push.ref ? { ref: push.ref } : {}) },
    source,
    repo: locator.repo || push.repo,
    branch: push.branch,
    forge: push.forge,
    squashCandidate: push.squashCandidate === true,
  };
  const { jobId, duplicate } = delivery ? await options.jobs.receive(spec, `${source}:${delivery}`) : { jobId: (await options.jobs.submit(spec)).id, duplicate: false };
  ctx.status = 202;
  ctx.body = {
    id: jobId,
    job_id: jobId,
    status: 'queued',
    message: duplicate ? `Delivery ${delivery} was already received; this is its job` : push.ref ? 'Request received; analysis of its commits queued' : 'Push received; analysis queued',
    ...(duplicate ? { duplicate: true } : {}),
  };
}
