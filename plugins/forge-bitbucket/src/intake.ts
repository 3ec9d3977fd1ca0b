import { type ForgeIntake, type WebhookDelivery, type WebhookOutcome } from '@cadence-detect/plugin-sdk';
import { invalidPayload, pushOutcome, requireHubSignature } from '@cadence-detect/forge-kit';
import { bitbucketPullRequest, bitbucketPush, type PushOutcome } from './payload.js';

/** The request events whose head is new: opened, or updated (new commits, a new title or target). */
const REQUEST_EVENTS = new Set(['pullrequest:created', 'pullrequest:updated']);

/**
 * Bitbucket Cloud's webhooks (docs/forges.md, POST /webhooks/bitbucket): `X-Hub-Signature:
 * sha256=<hex>`, the HMAC-SHA256 of the JSON body under the webhook's secret; the event in
 * `X-Event-Key`; the delivery's id in `X-Request-UUID` (the same on a redelivery). Pushes and pull
 * requests opened or updated become jobs.
 */
export function bitbucketIntake(settings: { readonly drafts: boolean }): ForgeIntake {
  return {
    verify(delivery, secret) {
      requireJson(delivery);
      requireHubSignature(delivery, secret, { header: 'X-Hub-Signature', forge: 'Bitbucket' });
    },
    parse(delivery) {
      requireJson(delivery);
      const event = delivery.header('x-event-key');
      const id = delivery.header('x-request-uuid');
      if (event === 'diagnostics:ping') return { kind: 'ping' };
      if (REQUEST_EVENTS.has(event)) return outcome(bitbucketPullRequest(delivery.payload(), settings), id);
      if (event !== 'repo:push') return { kind: 'ignored-event', event: event || null };
      return outcome(bitbucketPush(delivery.payload()), id);
    },
  };
}

/** Bitbucket sends JSON and signs it: anything else is not a Bitbucket delivery. */
function requireJson(delivery: WebhookDelivery): void {
  const type = (delivery.header('content-type').split(';')[0] ?? '').trim().toLowerCase();
  if (type !== 'application/json')
    throw invalidPayload('content-type', `${type || 'none'}: Bitbucket sends application/json`);
}

function outcome(parsed: PushOutcome, delivery: string): WebhookOutcome {
  return parsed.kind === 'ignored' ? parsed : pushOutcome(parsed.push, delivery);
}
