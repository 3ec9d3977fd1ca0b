import { spawn, type ChildProcess } from 'node:child_process';
import { freePort, waitForPort } from './git-daemon.js';
import { makeTempDir, type TempDir } from './temp-dir.js';

export interface RedisServer {
  readonly port: number;
  readonly url: string;
  /** Stops the server (its data stays in its folder when it was started persistent). */
  stop(): Promise<void>;
  /** Starts it again on the same port and folder. */
  restart(): Promise<void>;
  /** Stops it and removes its folder. */
  close(): Promise<void>;
}

/**
 * A `redis-server` of the test's own on 127.0.0.1 and a free port, its files in a temporary folder:
 * tests never touch a shared Redis. No snapshots; with `persistent`, an append-only file in that
 * folder, so that a stop and restart keeps what was written (the "Redis went away" tests).
 */
export async function startRedisServer(options: { persistent?: boolean } = {}): Promise<RedisServer> {
  const dir: TempDir = await makeTempDir('cadence-redis-');
  const port = await freePort();
  let child: ChildProcess | null = null;
  const start = async (): Promise<void> => {
    child = spawn('redis-server', [
      '--port', String(port), '--bind', '127.0.0.1', '--dir', dir.path, '--save', '',
      '--appendonly', options.persistent ? 'yes' : 'no', '--appendfsync', 'always', '--daemonize', 'no', '--loglevel', 'warning',
    ], { stdio: ['ignore', 'ignore', 'pipe'] });
    await waitForPort('127.0.0.1', port, 10_000);
  };
  const stop = async (): Promise<void> => {
    const running = child;
    child = null;
    if (!running || running.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      running.once('exit', () => resolve());
      running.kill('SIGTERM');
    });
  };
  await start();
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    stop,
    restart: start,
    close: async () => {
      await stop();
      await dir.remove();
    },
  };
}
