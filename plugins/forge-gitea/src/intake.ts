import {
  invalidPayload,
  pushOutcome,
  refuseDelivery,
  verifyHubSignature,
  type ForgeIntake,
  type WebhookDelivery,
  type WebhookOutcome,
  type WebhookSecret,
} from '@cadence-detect/plugin-sdk';
import { giteaPullRequest, giteaPush, type PushOutcome } from './payload.js';

/** The signature headers: Gitea sends the first; Forgejo sends both, and then both must verify. */
const SIGNATURES = ['x-gitea-signature', 'x-forgejo-signature'] as const;

/**
 * Gitea's and Forgejo's webhooks (docs/forges.md, POST /webhooks/gitea): the hex HMAC-SHA256 of the
 * JSON body in `X-Gitea-Signature` (and `X-Forgejo-Signature` from Forgejo), the event in
 * `X-Gitea-Event` (or `X-Forgejo-Event`), the delivery id in `X-Gitea-Delivery` (or
 * `X-Forgejo-Delivery`). Pushes and pull requests (opened, reopened, synchronized) become jobs.
 */
export function giteaIntake(settings: { readonly drafts: boolean }): ForgeIntake {
  return {
    verify(delivery, secret) {
      requireJson(delivery);
      const present = SIGNATURES.filter((name) => delivery.header(name) !== '');
      if (present.length === 0)
        throw refuseDelivery(
          401,
          'invalid_signature',
          'No X-Gitea-Signature header: set the webhook\u2019s secret on Gitea or Forgejo to the server\u2019s webhook secret (CADENCE_WEBHOOK_SECRET)',
        );
      for (const name of present) if (!signedBy(delivery, name, secret)) throw mismatch(name);
    },
    parse(delivery) {
      requireJson(delivery);
      const event = delivery.header('x-forgejo-event') || delivery.header('x-gitea-event');
      const id = delivery.header('x-gitea-delivery') || delivery.header('x-forgejo-delivery');
      if (event === 'pull_request') return outcome(giteaPullRequest(delivery.payload(), settings), id);
      if (event !== 'push') return { kind: 'ignored-event', event: event || null };
      return outcome(giteaPush(delivery.payload()), id);
    },
  };
}

/**
 * Gitea signs the JSON payload: a form-encoded delivery carries the payload in a field, so its
 * signature could never match the body. Said plainly rather than as a failed signature.
 */
function requireJson(delivery: WebhookDelivery): void {
  const type = delivery.header('content-type').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/json')
    throw invalidPayload(
      'content-type',
      `${type || 'none'}: set the webhook\u2019s POST content type to application/json (Gitea and Forgejo sign the JSON body)`,
    );
}

function signedBy(delivery: WebhookDelivery, header: string, secret: WebhookSecret): boolean {
  return verifyHubSignature(delivery.body, `sha256=${delivery.header(header).trim()}`, secret.key);
}

function mismatch(header: string): Error {
  const name = header.replace(/(^|-)([a-z])/g, (_, dash: string, c: string) => dash + c.toUpperCase());
  return refuseDelivery(
    401,
    'invalid_signature',
    `Webhook signature verification failed: the ${name} header does not match the body signed with the server\u2019s webhook secret`,
  );
}

function outcome(parsed: PushOutcome, delivery: string): WebhookOutcome {
  return parsed.kind === 'ignored' ? parsed : pushOutcome(parsed.push, delivery);
}
