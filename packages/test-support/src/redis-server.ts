import { spawn, type ChildProcess } from 'node:child_process';
import { connect } from 'node:net';
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
  let port = await freePort();
  let child: ChildProcess | null = null;
  const spawnOn = async (): Promise<boolean> => {
    const started = spawn(
      'redis-server',
      [
        '--port',
        String(port),
        '--bind',
        '127.0.0.1',
        '--dir',
        dir.path,
        '--save',
        '',
        '--appendonly',
        options.persistent ? 'yes' : 'no',
        '--appendfsync',
        'always',
        '--daemonize',
        'no',
        '--loglevel',
        'warning',
      ],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    const exited = new Promise<boolean>((resolve) => started.once('exit', () => resolve(false)));
    child = started;
    // The port may be another server's (taken between the check and the bind): ours says its pid.
    const listening = waitForPort('127.0.0.1', port, 10_000).then(
      async () => (await redisProcessId(port)) === started.pid,
    );
    return Promise.race([listening, exited]);
  };
  const start = async (): Promise<void> => {
    if (await spawnOn()) return;
    throw new Error(`redis-server could not listen on 127.0.0.1:${port}`);
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
  // The free port may be taken between the check and the bind (another test run starting its own):
  // a server that exited is not ours to talk to, so another port is tried.
  for (let attempt = 0; !(await spawnOn()); attempt++) {
    if (attempt >= 4) throw new Error('redis-server did not start');
    port = await freePort();
  }
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

/** The pid the Redis server on `port` gives in `INFO server`, or null when what answers is not one. */
function redisProcessId(port: number): Promise<number | null> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    let answer = '';
    const done = (pid: number | null): void => {
      socket.destroy();
      resolve(pid);
    };
    socket.setTimeout(2000, () => done(null));
    socket.on('error', () => done(null));
    socket.on('end', () => done(null));
    socket.on('connect', () => socket.write('INFO server\r\n'));
    socket.on('data', (chunk: Buffer) => {
      answer += chunk.toString('latin1');
      const pid = /process_id:(\d+)\r\n/.exec(answer);
      if (pid) done(Number(pid[1]));
    });
  });
}
