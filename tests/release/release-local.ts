/**
 * `pnpm release:local` (docs/install.md): the packages published to a Verdaccio on 127.0.0.1 that is
 * left running, so a person can install them by hand exactly as the release check does:
 *   pnpm release:local         builds, starts the registry, publishes every package (the CLI last,
 *                              with its npm-shrinkwrap.json) and prints the registry to use;
 *   pnpm release:local stop    stops it and removes what it made.
 * Its state is in .release-local/ at the repository's top (ignored by git).
 */
import { readFile, rm, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import {
  check,
  publicPackages,
  publishEnvironment,
  publishWorkspace,
  removeShrinkwraps,
  root,
  run,
  startVerdaccio,
} from './local-registry.js';
import { eventually } from '@cadence-detect/test-support';

const work = path.join(root, '.release-local');
const stateFile = path.join(work, 'state.json');

interface State {
  readonly pid: number;
  readonly url: string;
}

async function readState(): Promise<State | null> {
  try {
    return JSON.parse(await readFile(stateFile, 'utf8')) as State;
  } catch {
    return null;
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function stop(): Promise<void> {
  const state = await readState();
  if (state && alive(state.pid)) {
    // The registry was started in its own process group: the group goes, its children with it.
    process.kill(-state.pid, 'SIGTERM');
    await eventually(() => !alive(state.pid), 'the registry stopping', { timeoutMs: 5000, everyMs: 100 }).catch(
      () => undefined, // still alive after 5 s: killed below
    );
    if (alive(state.pid)) process.kill(-state.pid, 'SIGKILL');
    process.stdout.write(`stopped the registry at ${state.url}\n`);
  } else {
    process.stdout.write('no local registry is running\n');
  }
  await rm(work, { recursive: true, force: true });
  await removeShrinkwraps();
}

async function start(): Promise<void> {
  const running = await readState();
  check(
    !running || !alive(running.pid),
    `a local registry is already running at ${running?.url} (pnpm release:local stop stops it)`,
  );
  await rm(work, { recursive: true, force: true });
  await mkdir(work, { recursive: true });
  const step = async <T>(name: string, action: () => Promise<T>): Promise<T> => {
    process.stdout.write(`▶ ${name}\n`);
    return action();
  };
  await step('build', () => run('pnpm', ['build'], { cwd: root, env: process.env }));
  const packages = await publicPackages();
  const uplink = (
    await run('npm', ['config', 'get', 'registry'], {
      cwd: work,
      env: { PATH: process.env.PATH, HOME: process.env.HOME },
    })
  ).stdout.trim();
  const server = await step('start Verdaccio on 127.0.0.1 (left running)', () =>
    startVerdaccio(work, uplink, { detached: true }),
  );
  const pid = server.process.pid!;
  await writeFile(stateFile, JSON.stringify({ pid, url: server.url } satisfies State));
  try {
    const publishEnv = await publishEnvironment(server, work);
    await publishWorkspace(server, packages, publishEnv, path.join(work, 'npm-cache'), step);
  } catch (error) {
    await stop();
    throw error;
  } finally {
    // A shrinkwrap written against this registry's tarballs must never reach a real release.
    await removeShrinkwraps();
  }
  process.stdout.write(
    [
      '',
      `The registry is running at ${server.url} (pid ${pid}), with ${packages.length} packages published.`,
      'Install from it as a user would (an empty folder, a fresh prefix and cache):',
      `  npm install -g @cadence-detect/cli --registry ${server.url}`,
      `  npx --registry ${server.url} @cadence-detect/cli analyze .`,
      `Or give npm the line   registry=${server.url}   in an .npmrc.`,
      'Stop it with: pnpm release:local stop',
      '',
    ].join('\n'),
  );
}

const command = process.argv[2] ?? 'start';
(command === 'stop'
  ? stop()
  : command === 'start'
    ? start()
    : Promise.reject(new Error(`unknown command ${command}: start or stop`))
).then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`release:local: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
