import type { CadenceConfig } from '@cadence-detect/config';
import { createBackends, createServer } from '@cadence-detect/server';
import { errorCode, errorMessage } from '@cadence-detect/errors';
import { nicenessProblem } from '../../analysis-niceness.js';
import type { EngineThreadData } from '../../engine-thread.js';
import { ENGINE_THREAD_MODULE } from '../../host-files.js';
import { createRuntime } from '../../runtime.js';
import { CliError } from '../exit-codes.js';
import type { CliIo } from '../io.js';
import { runUntilStopped } from '../stop-signals.js';
import { MIN_SECRET_LENGTH, type WebhookOptions } from './webhook.js';

/** "cadence webhook: listening on http://127.0.0.1:8000, dashboard http://127.0.0.1:8000/, API token required". */
export function listeningLine(config: CadenceConfig, port: number, forges: readonly string[]): string {
  const host = config.webhook.host;
  const shown = host === '0.0.0.0' || host === '::' ? 'localhost' : host.includes(':') ? `[${host}]` : host;
  const local = `http://${shown}:${port}${config.server.base_path}`;
  const dashboard = config.server.public_url ? config.server.public_url.replace(/\/+$/, '') : local;
  const everywhere = host === '0.0.0.0' || host === '::' ? ' (every interface)' : '';
  const token = config.api.token
    ? 'API token required'
    : 'no API token: anyone who reaches this address may start analyses (set CADENCE_API_TOKEN)';
  // The forges the loaded plugins declare: "…/webhooks/github and /webhooks/gitlab".
  const paths = forges.map((name) => `/webhooks/${name}`);
  const webhooks =
    paths.length === 0
      ? 'no webhooks (no forge plugin loaded)'
      : `webhooks ${dashboard}${[paths.slice(0, -1).join(', '), paths.at(-1)].filter(Boolean).join(' and ')}`;
  return `cadence webhook: listening on ${local}${everywhere}, dashboard ${dashboard}/, ${webhooks}, ${token}`;
}

/** `cadence webhook`: the server until SIGTERM or SIGINT. */
export async function runWebhook(options: WebhookOptions, io: CliIo): Promise<void> {
  const niceness = nicenessProblem(io.env.CADENCE_ANALYSIS_NICENESS);
  if (niceness) throw new CliError('usage', niceness);
  const runtime = await createRuntime(io, {
    ...(options.config ? { configPath: options.config } : {}),
    flags: webhookFlags(options),
    logWarnings: true,
  });
  const { config, logger } = runtime;
  const log = logger.child('server');
  checkSecret(config, options, log);
  for (const entry of runtime.pluginEntries.filter((e) => e.status === 'failed' || e.status === 'incompatible')) {
    log.warn('plugin not loaded', { plugin: entry.specifier, status: entry.status, reason: entry.reason });
  }
  if (config.webhook.maxWorkers === 0 && config.queue.backend === 'memory') {
    throw new CliError(
      'usage',
      '--workers 0 (intake only) needs queue.backend: redis and `cadence worker` processes to run the jobs',
    );
  }
  const backends = await createBackends(config, logger);
  // Analyses run in worker threads built from this runtime's resolved configuration (data, not a
  // file to read again), so the HTTP event loop never runs one and a strategy stuck in synchronous
  // code can be stopped.
  const threadData: EngineThreadData = { resolved: runtime.resolved, cwd: io.cwd };
  const analysisThreads = { module: ENGINE_THREAD_MODULE, data: threadData };
  const server = createServer({
    config: runtime.config,
    engine: runtime.engine,
    logger: runtime.logger,
    backends,
    analysisThreads,
  });
  await listen(server, runtime, backends.kind, io);
  await runUntilStopped(log, config.limits.shutdown_grace_seconds, () => server.shutdown());
}

/** The command's flags as configuration (over files and the environment). */
function webhookFlags(options: WebhookOptions): Record<string, unknown> {
  const webhook: Record<string, unknown> = {};
  if (options.port !== undefined) webhook.port = options.port;
  if (options.host !== undefined) webhook.host = options.host;
  if (options.secret !== undefined) webhook.secret = options.secret;
  if (options.workers !== undefined) webhook.maxWorkers = options.workers;
  if (options.timeout !== undefined) webhook.read_timeout_seconds = options.timeout;
  const flags: Record<string, unknown> = { webhook };
  if (options.apiToken !== undefined) flags.api = { token: options.apiToken };
  return flags;
}

/** No secret only when asked for out loud, and never a short one. */
function checkSecret(config: CadenceConfig, options: WebhookOptions, log: { warn(message: string): void }): void {
  if (!config.webhook.secret) {
    if (!options.insecureNoSecret) {
      throw new CliError(
        'usage',
        'no webhook secret: set CADENCE_WEBHOOK_SECRET (or webhook.secret, or --secret), or pass --insecure-no-secret',
      );
    }
    log.warn(
      'starting WITHOUT a webhook secret (--insecure-no-secret): anyone can trigger analyses through the webhooks',
    );
  } else if (config.webhook.secret.length < MIN_SECRET_LENGTH) {
    throw new CliError(
      'usage',
      `Invalid configuration: webhook.secret must be at least ${MIN_SECRET_LENGTH} characters, got ${config.webhook.secret.length} (CADENCE_WEBHOOK_SECRET, webhook.secret or --secret)`,
    );
  }
}

/** Listens, logs where, and tells the person at the terminal in one line; a port taken is a failure. */
async function listen(
  server: ReturnType<typeof createServer>,
  runtime: Awaited<ReturnType<typeof createRuntime>>,
  backend: string,
  io: CliIo,
): Promise<void> {
  const { config } = runtime;
  try {
    const listening = await server.listen(config.webhook.port, config.webhook.host);
    const address = listening.address();
    const port = typeof address === 'object' && address ? address.port : config.webhook.port;
    runtime.logger.child('server').info('listening', {
      host: config.webhook.host,
      port,
      workers: config.webhook.maxWorkers,
      backend,
      plugins: runtime.plugins.map((p) => p.packageName),
    });
    // One line for a person at the terminal (the JSON log on stdout is for machines).
    io.stderr.write(
      `${listeningLine(
        config,
        port,
        runtime.plugins.flatMap((p) => (p.plugin.forge ? [p.plugin.forge.name] : [])),
      )}\n`,
    );
  } catch (error) {
    const code = errorCode(error);
    throw new CliError(
      code === 'EADDRINUSE' || code === 'EACCES' ? 'failed' : 'usage',
      `cannot listen on ${config.webhook.host}:${config.webhook.port}: ${errorMessage(error)}`,
    );
  }
}
