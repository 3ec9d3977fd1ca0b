import { type ForgeIntake, type WebhookOutcome } from '@cadence-detect/plugin-sdk';
import { constantTimeEqual, pushOutcome, refuseDelivery, verifyHubSignature } from '@cadence-detect/forge-kit';
import { gitlabMergeRequest, gitlabPush, type PushOutcome } from './payload.js';

const PUSH_HOOK = /^push hook$/i;
const MERGE_REQUEST_HOOK = /^merge request hook$/i;

/**
 * GitLab's webhooks (docs/http-api.md, POST /webhooks/gitlab): the secret as `X-Gitlab-Token`, or a
 * signature (`X-Hub-Signature-256`, as GitLab's signed webhooks send); the event in `X-Gitlab-Event`
 * or the payload's `object_kind`; the delivery id in `Idempotency-Key` or `X-Gitlab-Event-UUID`.
 * Pushes become jobs; merge requests too where the plugin can report on them (`requests`).
 */
export function gitlabIntake(settings: { readonly requests: boolean; readonly drafts: boolean }): ForgeIntake {
  return {
    verify(delivery, secret) {
      const signature = delivery.header('x-hub-signature-256');
      if (signature) {
        if (!verifyHubSignature(delivery.body, signature, secret.key))
          throw refuseDelivery(401, 'invalid_signature', 'Webhook signature verification failed');
      } else if (!constantTimeEqual(delivery.header('x-gitlab-token'), secret.text)) {
        throw refuseDelivery(403, 'invalid_token', 'The X-Gitlab-Token header does not match the configured secret');
      }
    },
    parse(delivery) {
      const event = delivery.header('x-gitlab-event');
      const payload = delivery.payload();
      const kind = payload.object_kind;
      const id = delivery.header('idempotency-key') || delivery.header('x-gitlab-event-uuid');
      if ((MERGE_REQUEST_HOOK.test(event) || kind === 'merge_request') && settings.requests)
        return outcome(gitlabMergeRequest(payload, settings), id);
      if (!PUSH_HOOK.test(event) && kind !== 'push') return { kind: 'ignored-event', event: event || null };
      return outcome(gitlabPush(payload), id);
    },
  };
}

function outcome(parsed: PushOutcome, delivery: string): WebhookOutcome {
  return parsed.kind === 'ignored' ? parsed : pushOutcome(parsed.push, delivery);
}
