import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runGit } from './run-git.js';
import { eventually } from './eventually.js';

export interface GitDaemon {
  readonly port: number;
  readonly host: string;
  /** `git://host:port/<name>` for a repository exported with `exportRepository`. */
  url(name: string): string;
  close(): Promise<void>;
}

export async function freePort(host = '127.0.0.1'): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, host, () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** Makes a bare copy of `sourceDir` at `<baseDir>/<name>` that `git daemon` will serve. */
export async function exportRepository(baseDir: string, name: string, sourceDir: string): Promise<string> {
  const target = join(baseDir, name);
  await mkdir(join(target, '..'), { recursive: true });
  await runGit(baseDir, ['clone', '--quiet', '--bare', sourceDir, target]);
  await writeFile(join(target, 'git-daemon-export-ok'), '');
  return target;
}

/** Starts `git daemon` serving `baseDir` on a loopback address. */
export async function startGitDaemon(baseDir: string, host = '127.0.0.1'): Promise<GitDaemon> {
  const port = await freePort(host);
  const child: ChildProcess = spawn(
    'git',
    ['daemon', '--reuseaddr', `--base-path=${baseDir}`, `--listen=${host}`, `--port=${port}`, '--export-all', baseDir],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  await waitForPort(host, port, 5000);
  return {
    port,
    host,
    url: (name) => `git://${host}:${port}/${name}`,
    close: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

export async function waitForPort(host: string, port: number, timeoutMs: number): Promise<void> {
  const { connect } = await import('node:net');
  await eventually(
    () =>
      new Promise<boolean>((resolve) => {
        const socket = connect({ host, port }, () => {
          socket.destroy();
          resolve(true);
        });
        socket.once('error', () => resolve(false));
      }),
    `something to listen on ${host}:${port}`,
    { timeoutMs },
  );
}
