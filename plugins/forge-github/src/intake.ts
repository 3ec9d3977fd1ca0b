import {
  pushOutcome,
  refuseDelivery,
  verifyHubSignature,
  type ForgeIntake,
  type WebhookOutcome,
} from '@cadence-detect/plugin-sdk';
import { githubPullRequest, githubPush, type PushOutcome } from './payload.js';

const PING: WebhookOutcome = Object.freeze({ kind: 'ping' });

/**
 * GitHub's webhooks (docs/http-api.md, POST /webhooks/github): signed with `X-Hub-Signature-256`,
 * the event in `X-GitHub-Event`, the delivery id in `X-GitHub-Delivery`. Pushes become jobs; pull
 * requests too where the plugin can report on them (`requests`); ping is answered; the rest ignored.
 */
export function githubIntake(settings: { readonly requests: boolean; readonly drafts: boolean }): ForgeIntake {
  return {
    verify(delivery, secret) {
      const signature = delivery.header('x-hub-signature-256');
      // A missing header is a webhook set up without its secret: say so, not "verification failed".
      if (!signature)
        throw refuseDelivery(
          401,
          'invalid_signature',
          'No X-Hub-Signature-256 header: set the webhook\u2019s secret on GitHub to the server\u2019s webhook secret (CADENCE_WEBHOOK_SECRET)',
        );
      if (!verifyHubSignature(delivery.body, signature, secret.key))
        throw refuseDelivery(
          401,
          'invalid_signature',
          'Webhook signature verification failed: the X-Hub-Signature-256 header does not match the body signed with the server\u2019s webhook secret',
        );
    },
    parse(delivery) {
      const event = delivery.header('x-github-event');
      if (event === 'ping') return PING;
      if (event === 'pull_request' && settings.requests)
        return outcome(githubPullRequest(delivery.payload(), settings), delivery.header('x-github-delivery'));
      if (event !== 'push') return { kind: 'ignored-event', event: event || null };
      return outcome(githubPush(delivery.payload()), delivery.header('x-github-delivery'));
    },
  };
}

function outcome(parsed: PushOutcome, delivery: string): WebhookOutcome {
  return parsed.kind === 'ignored' ? parsed : pushOutcome(parsed.push, delivery);
}
