import { InvalidArgumentError, type Command } from 'commander';
import { createServer } from '@cadence/server';
import { createRuntime } from '../../runtime.js';
import { CliExit, type CliIo } from '../io.js';

/** A shorter webhook secret can be guessed offline from one signed delivery. */
export const MIN_SECRET_LENGTH = 16;

interface WebhookOptions {
  port?: number;
  host?: string;
  secret?: string;
  workers?: number;
  timeout?: number;
  config?: string;
  apiToken?: string;
  insecureNoSecret?: boolean;
}

function integer(min: number, max: number) {
  return (value: string): number => {
    if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max) throw new InvalidArgumentError(`must be an integer from ${min} to ${max}`);
    return Number(value);
  };
}

/** `--timeout 30s`, `--timeout 30` (seconds). */
function seconds(value: string): number {
  const match = /^(\d+(?:\.\d+)?)(ms|s|m)?$/.exec(value.trim());
  if (!match) throw new InvalidArgumentError('must be a duration such as 30s or 1m');
  const amount = Number(match[1]);
  const unit = match[2] ?? 's';
  const result = unit === 'ms' ? amount / 1000 : unit === 'm' ? amount * 60 : amount;
  if (result <= 0) throw new InvalidArgumentError('must be positive');
  return result;
}

export function register(program: Command, io: CliIo): void {
  program
    .command('webhook')
    .description('start the HTTP server: webhooks, on-demand analysis, jobs, streams, metrics')
    .option('--port <port>', 'listen port (8000)', integer(0, 65535))
    .option('--host <host>', 'bind address (0.0.0.0)')
    .option('--secret <secret>', 'webhook secret (prefer CADENCE_WEBHOOK_SECRET: flags show in ps)')
    .option('--workers <n>', 'concurrent analysis workers (4)', integer(1, 1024))
    .option('--timeout <duration>', 'per-request timeout (30s); streams are exempt', seconds)
    .option('--config <path>', 'configuration file (YAML or JSON)')
    .option('--api-token <token>', 'require Authorization: Bearer <token> on the API')
    .option('--insecure-no-secret', 'start without a webhook secret (unsigned webhooks are accepted)')
    .action(async (options: WebhookOptions) => {
      const webhook: Record<string, unknown> = {};
      if (options.port !== undefined) webhook.port = options.port;
      if (options.host !== undefined) webhook.host = options.host;
      if (options.secret !== undefined) webhook.secret = options.secret;
      if (options.workers !== undefined) webhook.maxWorkers = options.workers;
      if (options.timeout !== undefined) webhook.read_timeout_seconds = options.timeout;
      const flags: Record<string, unknown> = { webhook };
      if (options.apiToken !== undefined) flags.api = { token: options.apiToken };
      const runtime = await createRuntime(io, { ...(options.config ? { configPath: options.config } : {}), flags, logWarnings: true });
      const { config, logger } = runtime;
      const log = logger.child('server');
      if (!config.webhook.secret) {
        if (!options.insecureNoSecret) {
          throw new CliExit(2, 'no webhook secret: set CADENCE_WEBHOOK_SECRET (or webhook.secret, or --secret), or pass --insecure-no-secret');
        }
        log.warn('starting WITHOUT a webhook secret (--insecure-no-secret): anyone can trigger analyses through the webhooks');
      } else if (config.webhook.secret.length < MIN_SECRET_LENGTH) {
        throw new CliExit(2, `Invalid configuration: webhook.secret must be at least ${MIN_SECRET_LENGTH} characters, got ${config.webhook.secret.length} (CADENCE_WEBHOOK_SECRET, webhook.secret or --secret)`);
      }
      for (const entry of runtime.pluginEntries.filter((e) => e.status === 'failed' || e.status === 'incompatible')) {
        log.warn('plugin not loaded', { plugin: entry.specifier, status: entry.status, reason: entry.reason });
      }
      const server = createServer({ config: runtime.config, engine: runtime.engine, logger: runtime.logger });
      try {
        const listening = await server.listen(config.webhook.port, config.webhook.host);
        const address = listening.address();
        const port = typeof address === 'object' && address ? address.port : config.webhook.port;
        log.info('listening', { host: config.webhook.host, port, workers: config.webhook.maxWorkers, plugins: runtime.plugins.map((p) => p.packageName) });
      } catch (error) {
        const code = (error as { code?: string }).code;
        throw new CliExit(code === 'EADDRINUSE' || code === 'EACCES' ? 1 : 2, `cannot listen on ${config.webhook.host}:${config.webhook.port}: ${(error as Error).message}`);
      }
      await new Promise<void>((resolve) => {
        const stop = (signal: string): void => {
          process.off('SIGTERM', onTerm);
          process.off('SIGINT', onInt);
          log.info('shutting down', { signal, grace_seconds: config.limits.shutdown_grace_seconds });
          void server.shutdown().then(() => {
            log.info('stopped');
            resolve();
          });
        };
        const onTerm = (): void => stop('SIGTERM');
        const onInt = (): void => stop('SIGINT');
        process.on('SIGTERM', onTerm);
        process.on('SIGINT', onInt);
      });
    });
}
