/**
 * The light spawner's own process (light-spawner.ts starts it): runs each program it is asked to,
 * collects its output and answers with it. It holds nothing but this loop, so forking from it costs
 * little, where forking from a test process of several hundred megabytes costs tens of milliseconds
 * of CPU per process (the kernel copies the parent's page tables, then faults on every page the
 * parent writes while they are shared).
 */
import { spawn } from 'node:child_process';
import type { SpawnReply, SpawnRequest } from './light-spawner.js';

function answer(reply: SpawnReply): void {
  process.send?.(reply);
}

function run(request: SpawnRequest): void {
  const child = spawn(request.file, request.args, {
    cwd: request.cwd,
    env: request.env,
    stdio: [request.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    ...(request.timeoutMs === undefined ? {} : { timeout: request.timeoutMs }),
  });
  const stdout: Buffer[] = [];
  const stderr: Buffer[] = [];
  let size = 0;
  let overflow = false;
  const keep = (into: Buffer[]) => (chunk: Buffer) => {
    size += chunk.length;
    if (size > request.maxBuffer) {
      overflow = true;
      child.kill('SIGKILL');
      return;
    }
    into.push(chunk);
  };
  child.stdout?.on('data', keep(stdout));
  child.stderr?.on('data', keep(stderr));
  child.on('error', (error) =>
    answer({ id: request.id, code: null, signal: null, stdout: '', stderr: '', error: error.message }),
  );
  child.on('close', (code, signal) =>
    answer({
      id: request.id,
      code,
      signal,
      stdout: Buffer.concat(stdout).toString(),
      stderr: Buffer.concat(stderr).toString(),
      ...(overflow ? { error: `${request.file}'s output passed ${request.maxBuffer} bytes` } : {}),
    }),
  );
  // A program that does not read its input must not take the helper down with EPIPE.
  child.stdin?.on('error', () => undefined);
  child.stdin?.end(request.input);
}

process.on('message', (request: SpawnRequest) => run(request));
// The test process is gone: nothing is left to answer.
process.on('disconnect', () => process.exit(0));
