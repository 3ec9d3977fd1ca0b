import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export interface SpawnRequest {
  readonly id: number;
  readonly file: string;
  readonly args: readonly string[];
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
  /** Written to the program's standard input; without it, its input is closed (`ignore`). */
  readonly input?: string;
  readonly timeoutMs?: number;
  readonly maxBuffer: number;
}

export interface SpawnReply {
  readonly id: number;
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
  /** The program could not start, or wrote more than maxBuffer. */
  readonly error?: string;
}

export type Finished = Omit<SpawnReply, 'id' | 'error'>;

let spawner: ChildProcess | undefined;
let nextId = 0;
const pending = new Map<number, { resolve(reply: SpawnReply): void; reject(error: Error): void }>();

function startSpawner(): ChildProcess {
  const child = fork(fileURLToPath(new URL('./light-spawner-process.js', import.meta.url)), [], {
    // Plain Node: none of the test process's loaders (tsx) or flags.
    execArgv: [],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  child.on('message', (reply: SpawnReply) => {
    const waiter = pending.get(reply.id);
    pending.delete(reply.id);
    if (pending.size === 0) child.channel?.unref();
    waiter?.resolve(reply);
  });
  child.on('exit', (code, signal) => {
    spawner = undefined;
    for (const waiter of pending.values()) waiter.reject(new Error(`the light spawner exited (${code ?? signal})`));
    pending.clear();
  });
  // An idle spawner keeps no test process alive.
  child.unref();
  child.channel?.unref();
  return child;
}

/**
 * Runs a program to its end from a small helper process, and gives its exit and output. Test
 * processes grow to hundreds of megabytes, and each process they fork costs them tens of
 * milliseconds of CPU for that size alone; the suite's fixtures start thousands (git above all).
 * Rejects when the program cannot start or writes more than `maxBuffer` bytes.
 */
export function runLight(
  file: string,
  args: readonly string[],
  options: { cwd: string; env: NodeJS.ProcessEnv; input?: string; timeoutMs?: number; maxBuffer?: number },
): Promise<Finished> {
  const child = (spawner ??= startSpawner());
  const id = ++nextId;
  const request: SpawnRequest = {
    id,
    file,
    args,
    cwd: options.cwd,
    env: options.env,
    maxBuffer: options.maxBuffer ?? 64 * 1024 * 1024,
    ...(options.input === undefined ? {} : { input: options.input }),
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
  };
  return new Promise<SpawnReply>((resolve, reject) => {
    pending.set(id, { resolve, reject });
    child.channel?.ref();
    child.send(request);
  }).then(({ id: _id, error, ...finished }) => {
    if (error !== undefined) throw new Error(`${file} ${args.join(' ')}: ${error}`);
    return finished;
  });
}
