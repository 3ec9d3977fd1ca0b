import { type ForgeIntake, type WebhookDelivery, type WebhookOutcome } from '@cadence-detect/plugin-sdk';
import { invalidPayload, pushOutcome, requireHubSignature } from '@cadence-detect/forge-kit';
import { giteaPullRequest, giteaPush, type PushOutcome } from './payload.js';

/** The signature headers: Gitea sends the first; Forgejo sends both, and then both must verify. */
const SIGNATURES = ['X-Gitea-Signature', 'X-Forgejo-Signature'] as const;

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
      // Gitea sends the first; Forgejo sends both, and then both must verify.
      const present = SIGNATURES.filter((name) => delivery.header(name.toLowerCase()) !== '');
      for (const header of present.length > 0 ? present : SIGNATURES.slice(0, 1))
        requireHubSignature(delivery, secret, { header, forge: 'Gitea or Forgejo', bareHex: true });
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
  const type = (delivery.header('content-type').split(';')[0] ?? '').trim().toLowerCase();
  if (type !== 'application/json')
    throw invalidPayload(
      'content-type',
      `${type || 'none'}: set the webhook\u2019s POST content type to application/json (Gitea and Forgejo sign the JSON body)`,
    );
}

function outcome(parsed: PushOutcome, delivery: string): WebhookOutcome {
  return parsed.kind === 'ignored' ? parsed : pushOutcome(parsed.push, delivery);
}
