import { InvalidArgumentError, type Command } from '../../vendor/commander.js';
import { parseDuration } from '@cadence-detect/config/units';
import type { CliIo } from '../io.js';
import { importNeedingServer } from '../../optional-packages.js';

/** A shorter webhook secret can be guessed offline from one signed delivery. */
export const MIN_SECRET_LENGTH = 16;

export interface WebhookOptions {
  port?: number;
  host?: string;
  secret?: string;
  workers?: number;
  timeout?: number;
  config?: string;
  apiToken?: string;
  insecureNoSecret?: boolean;
}

export function integer(min: number, max: number) {
  return (value: string): number => {
    if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max)
      throw new InvalidArgumentError(`must be an integer from ${min} to ${max}`);
    return Number(value);
  };
}

/** `--timeout 30s`, `--timeout 30` (a bare number is seconds here): the configuration's one duration parser. */
function seconds(value: string): number {
  const text = /^\s*\d+(?:\.\d+)?\s*$/.test(value) ? `${value.trim()}s` : value;
  const milliseconds = parseDuration(text);
  if (Number.isNaN(milliseconds)) throw new InvalidArgumentError('must be a duration such as 30s or 1m');
  if (milliseconds <= 0) throw new InvalidArgumentError('must be positive');
  return milliseconds / 1000;
}

export function register(program: Command, io: CliIo): void {
  program
    .command('webhook')
    .description('start the HTTP server: webhooks, on-demand analysis, jobs, streams, metrics')
    .option('--port <port>', 'listen port (8000)', integer(0, 65535))
    .option('--host <host>', 'bind address (0.0.0.0)')
    .option('--secret <secret>', 'webhook secret (prefer CADENCE_WEBHOOK_SECRET: flags show in ps)')
    .option(
      '--workers <n>',
      'concurrent analysis workers (4); 0: intake only, `cadence worker`s run the jobs (queue.backend: redis)',
      integer(0, 1024),
    )
    .option('--timeout <duration>', 'per-request timeout (30s); streams are exempt', seconds)
    .option('--config <path>', 'configuration file (YAML or JSON)')
    .option('--api-token <token>', 'require Authorization: Bearer <token> on the API')
    .option('--insecure-no-secret', 'start without a webhook secret (unsigned webhooks are accepted)')
    // Koa, the server and the plugins load only when the server starts.
    .action(async (options: WebhookOptions) =>
      (await importNeedingServer('webhook', () => import('./webhook-action.js'))).runWebhook(options, io),
    );
}
