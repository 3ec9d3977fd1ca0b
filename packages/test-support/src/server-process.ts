import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { stringify } from 'yaml';
import { CADENCE_BIN, nodeSettingsEnv } from './cli-process.js';
import { startConnectionRecorder } from './connection-recorder.js';
import { eventually } from './eventually.js';

export interface ServerProcess {
  readonly url: string;
  readonly port: number;
  readonly child: ChildProcess;
  /** Every JSON log line so far. */
  readonly logs: Record<string, unknown>[];
  /** What the process wrote on stderr so far (the lines meant for a person). */
  stderr(): string;
  /** Sends a signal and resolves with the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
  request(pathname: string, init?: RequestInit): Promise<Response>;
  json<T = unknown>(pathname: string, init?: RequestInit): Promise<{ status: number; body: T; headers: Headers }>;
}

/**
 * The file a test's `config` is written to, in its folder, and given with --config: the server's
 * configuration is its operator's choice (a `.cadence.yaml` found there sets analysis data only).
 */
export const SERVER_CONFIG_FILE = 'cadence-server.yaml';

export interface ServerOptions {
  /** Written to <cwd>/cadence-server.yaml, which every process started in that folder gets with --config. */
  readonly config?: Record<string, unknown>;
  readonly env?: NodeJS.ProcessEnv;
  readonly args?: readonly string[];
  readonly cwd: string;
  readonly secret?: string | null;
  /** Another installation's bin (a deployment's copy); the workspace's by default. */
  readonly bin?: string;
}

/** Starts the real `cadence webhook` process on 127.0.0.1 and a free port. */
export async function startCadenceServer(options: ServerOptions): Promise<ServerProcess> {
  return startCadenceProcess(options, ['webhook', '--port', '0', '--host', '127.0.0.1'], 'listening');
}

/** Starts the real `cadence worker` process (no HTTP: its `url`, `port`, `request` and `json` are unusable). */
export async function startCadenceWorker(options: ServerOptions): Promise<ServerProcess> {
  return startCadenceProcess(options, ['worker'], 'worker started');
}

/**
 * With CADENCE_TEST_REDIS_URL set (`.ci/run` sets it for one run of the end-to-end suite), every
 * server a test starts uses the Redis backend, each under a key prefix of its own. A random prefix,
 * not a counter: mocha loads a test file with `require()` and falls back to `import()` for the ones
 * whose dependencies are ESM only, so this module can be loaded twice in one process, each copy
 * counting from 1, and two servers sharing a prefix share their rate-limit windows (the cause of
 * a rate-limit test once finding its window spent).
 */
function sharedBackendEnv(): Record<string, string> {
  const url = process.env.CADENCE_TEST_REDIS_URL;
  if (!url) return {};
  return {
    CADENCE_QUEUE_BACKEND: 'redis',
    CADENCE_REDIS_URL: url,
    CADENCE_REDIS_KEY_PREFIX: `e2e-${process.pid}-${randomUUID().slice(0, 12)}`,
  };
}

async function startCadenceProcess(
  options: ServerOptions,
  command: readonly string[],
  readyMessage: string,
): Promise<ServerProcess> {
  const configFile = path.join(options.cwd, SERVER_CONFIG_FILE);
  if (options.config) await writeFile(configFile, stringify(options.config));
  const chosen = existsSync(configFile) && !options.args?.includes('--config') ? ['--config', configFile] : [];
  const secret = options.secret === undefined ? 'test-webhook-secret-0123456789' : options.secret;
  const child = spawn(process.execPath, [options.bin ?? CADENCE_BIN, ...command, ...chosen, ...(options.args ?? [])], {
    cwd: options.cwd,
    // Repository mirrors per test folder: processes of one deployment share them (and their locks),
    // tests (and parallel CI runs) never meet in the machine-wide default folder.
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      ...nodeSettingsEnv(),
      CADENCE_CACHE_REPOSITORIES_DIR: path.join(options.cwd, '.cadence-mirrors'),
      // Analysis threads at the HTTP thread's priority: CI runs three suites side by side on two
      // cores, where a thread 10 nicer gets about a tenth of a busy core and a job that takes 3 s
      // alone waits 30 s and more. The default (10 nicer) has tests of its own, which pass
      // `CADENCE_ANALYSIS_NICENESS: undefined` to get it.
      CADENCE_ANALYSIS_NICENESS: '0',
      ...(secret ? { CADENCE_WEBHOOK_SECRET: secret } : {}),
      ...(command[0] === 'webhook' ? sharedBackendEnv() : {}),
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logs: Record<string, unknown>[] = [];
  let stderr = '';
  let buffered = '';
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`cadence ${command[0]} did not start: ${stderr}`)), 20_000);
    child.stdout.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      const lines = buffered.split('\n');
      buffered = lines.pop() ?? '';
      for (const line of lines) {
        try {
          const record = JSON.parse(line) as Record<string, unknown>;
          logs.push(record);
          if (record.message === readyMessage) {
            clearTimeout(timer);
            resolve(Number(record.port ?? 0));
          }
        } catch {
          // not a log line
        }
      }
    });
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}: ${stderr}`));
    });
  });
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    port,
    child,
    logs,
    stderr: () => stderr,
    stop: async (signal = 'SIGTERM') => {
      if (child.exitCode === null) child.kill(signal);
      return exited;
    },
    request: (pathname, init) => fetch(`${url}${pathname}`, init),
    json: async <T>(pathname: string, init?: RequestInit) => {
      const response = await fetch(`${url}${pathname}`, init);
      const text = await response.text();
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {
        // not JSON
      }
      return { status: response.status, body: body as T, headers: response.headers };
    },
  };
}

/** Polls GET /jobs/:id until the job reaches a final state. */
export async function waitForJob<T extends { status: string }>(
  server: ServerProcess,
  id: string,
  timeoutMs = 20_000,
  headers: Record<string, string> = {},
): Promise<T> {
  let last = 'unread';
  return eventually(
    async () => {
      const { body } = await server.json<T>(`/jobs/${id}`, { headers });
      last = body.status;
      return ENDED.has(body.status) && body;
    },
    () => `job ${id} to end (still ${last})`,
    { timeoutMs },
  );
}

/** Waits until the job has ended and its record holds `count` reporter outcomes (reporters may finish after the job). */
export async function waitForReports<T extends { reports?: unknown[]; status?: string }>(
  server: ServerProcess,
  id: string,
  count: number,
  timeoutMs = 25_000,
): Promise<T> {
  let last: T | undefined;
  return eventually(
    async () => {
      const { body } = await server.json<T>(`/jobs/${id}`);
      last = body;
      // Also ended: a reporter's final outcome is recorded as the analysis returns, a moment before
      // the job's own final write (longer through a shared store).
      return (body.reports ?? []).length >= count && ENDED.has(String(body.status)) && body;
    },
    () => `the reports of job ${id} (${String(last?.status)}, reports ${JSON.stringify(last?.reports)})`,
    { timeoutMs, everyMs: 100 },
  );
}

const ENDED = new Set(['completed', 'failed', 'cancelled', 'timeout']);

/** A TCP server that accepts connections and never answers: a stalled git or HTTP server. */
export async function startStalledServer(
  host = '127.0.0.1',
): Promise<{ port: number; connections: () => number; close(): Promise<void> }> {
  return startConnectionRecorder(host, 'stall');
}
