import { type ForgeIntake, type WebhookOutcome } from '@cadence-detect/plugin-sdk';
import { pushOutcome, requireHubSignature } from '@cadence-detect/forge-kit';
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
      requireHubSignature(delivery, secret, { header: 'X-Hub-Signature-256', forge: 'GitHub' });
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
