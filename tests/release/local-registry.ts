/**
 * The local registry the release check and `pnpm release:local` share: a real Verdaccio on
 * 127.0.0.1 serving this project's package names from its own storage only (everything else proxied
 * to npm's configured registry), a throwaway publishing user, and the workspace published to it in
 * `pnpm release`'s order (every public package, then the forge plugins and the CLI, each with its
 * npm-shrinkwrap.json).
 * No shell: every command is a program with its arguments.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, open, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { eventually } from '@cadence-detect/test-support';

export const root = path.resolve(fileURLToPath(new URL('.', import.meta.url)), '../..');
export const CLI_PACKAGE = '@cadence-detect/cli';
export const SCOPE = '@cadence-detect';
export const EXAMPLE = 'cadence-plugin-file-drops';

export interface Ran {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

export class CheckFailure extends Error {}

/** Runs a program (never a shell) and fails with its output when it exits non-zero. */
export function run(
  command: string,
  args: readonly string[],
  options: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs?: number; allowFailure?: boolean },
): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 240_000);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(new CheckFailure(`${command} could not start: ${error.message}`));
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      const ran = { code, stdout, stderr };
      if (code === 0 || options.allowFailure) resolve(ran);
      else
        reject(
          new CheckFailure(
            `${command} ${args.join(' ')} (in ${options.cwd}) exited with ${code ?? signal}\n${tail(stdout)}\n${tail(stderr)}`,
          ),
        );
    });
  });
}

export function tail(text: string, lines = 40): string {
  return text.trimEnd().split('\n').slice(-lines).join('\n');
}

export function check(condition: unknown, message: string): asserts condition {
  if (!condition) throw new CheckFailure(message);
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** The packages `pnpm -r publish` will publish: every workspace package that is not private. */
export async function publicPackages(): Promise<{ name: string; version: string; dir: string }[]> {
  const listed = await run('pnpm', ['-r', 'ls', '--depth', '-1', '--json'], { cwd: root, env: process.env });
  const entries = JSON.parse(listed.stdout) as { name: string; version: string; path: string; private: boolean }[];
  return entries
    .filter((entry) => !entry.private && entry.name)
    .map((entry) => ({ name: entry.name, version: entry.version, dir: entry.path }));
}

export interface Registry {
  readonly url: string;
  readonly process: ChildProcess;
  readonly log: () => string;
}

export async function startVerdaccio(
  work: string,
  uplink: string,
  options: { detached?: boolean } = {},
): Promise<Registry> {
  const port = await freePort();
  const config = path.join(work, 'verdaccio');
  await mkdir(config);
  // Our names first: served from local storage only, never looked up upstream (no `proxy`).
  const yaml = [
    `storage: ${JSON.stringify(path.join(config, 'storage'))}`,
    'auth:',
    '  htpasswd:',
    `    file: ${JSON.stringify(path.join(config, 'htpasswd'))}`,
    '    max_users: 10',
    // The throwaway user's password is checked with bcrypt on every request npm sends its token
    // with: at Verdaccio's default cost (10) that is about 16 s of the release check's CPU, for a
    // user that lives as long as a registry on loopback.
    '    rounds: 4',
    'uplinks:',
    '  public:',
    `    url: ${JSON.stringify(uplink)}`,
    '    timeout: 60s',
    '    maxage: 30m',
    'packages:',
    `  '${SCOPE}/*':`,
    '    access: $all',
    '    publish: $authenticated',
    // The example is never published nor looked up upstream: asking for it by name fails here.
    `  '${EXAMPLE}':`,
    '    access: $all',
    '    publish: nobody',
    "  '**':",
    '    access: $all',
    '    publish: $authenticated',
    '    proxy: public',
    'web:',
    '  enable: false',
    'max_body_size: 100mb',
    'log: { type: stdout, format: pretty, level: warn }',
    '',
  ].join('\n');
  const file = path.join(config, 'config.yaml');
  await writeFile(file, yaml);
  const bin = path.join(
    path.dirname(createRequire(path.join(root, 'package.json')).resolve('verdaccio/package.json')),
    'bin',
    'verdaccio',
  );
  // The machine's environment (a proxy or a CA bundle the uplink needs), without the npm_* of `pnpm run`.
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.toLowerCase().startsWith('npm_')));
  let output = '';
  let child: ChildProcess;
  if (options.detached) {
    // Left running after this process ends (pnpm release:local): its log goes to a file.
    const log = await open(path.join(config, 'verdaccio.log'), 'a');
    child = spawn(process.execPath, [bin, '--config', file, '--listen', `127.0.0.1:${port}`], {
      cwd: config,
      env: { ...env, HOME: work },
      stdio: ['ignore', log.fd, log.fd],
      detached: true,
    });
    child.unref();
    await log.close();
  } else {
    child = spawn(process.execPath, [bin, '--config', file, '--listen', `127.0.0.1:${port}`], {
      cwd: config,
      env: { ...env, HOME: work },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  }
  const url = `http://127.0.0.1:${port}/`;
  await eventually(
    async () => {
      if (child.exitCode !== null) throw new CheckFailure(`verdaccio exited with ${child.exitCode}\n${tail(output)}`);
      // Not listening yet: asked again.
      return (await fetch(`${url}-/ping`).catch(() => null))?.ok;
    },
    `verdaccio to answer on ${url}`,
    { timeoutMs: 30_000, everyMs: 200 },
  ).catch((error: unknown) => {
    throw error instanceof CheckFailure ? error : new CheckFailure(`${String(error)}\n${tail(output)}`);
  });
  return { url, process: child, log: () => output };
}

/** A throwaway user, created with the registry's own API (what `npm adduser` does); its token. */
export async function createUser(registry: string): Promise<string> {
  const name = `release-check-${process.pid}`;
  const response = await fetch(`${registry}-/user/org.couchdb.user:${name}`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      _id: `org.couchdb.user:${name}`,
      name,
      password: `pw-${Math.random().toString(36).slice(2)}-${Date.now()}`,
      type: 'user',
      roles: [],
      date: new Date().toISOString(),
    }),
  });
  const body = (await response.json()) as { token?: string };
  check(
    response.status === 201 && body.token,
    `could not create a user on the registry: ${response.status} ${JSON.stringify(body)}`,
  );
  return body.token;
}

/** Publishing to `server` as a throwaway user: its environment, with the machine's less `pnpm run`'s npm_* (pnpm publish runs npm publish, which would read them). */
export async function publishEnvironment(server: Registry, work: string): Promise<NodeJS.ProcessEnv> {
  const token = await createUser(server.url);
  const publisherRc = path.join(work, 'publisher.npmrc');
  await writeFile(publisherRc, `registry=${server.url}\n//${new URL(server.url).host}/:_authToken=${token}\n`);
  const machineEnv = Object.fromEntries(
    Object.entries(process.env).filter(([key]) => !key.toLowerCase().startsWith('npm_')),
  );
  return { ...machineEnv, npm_config_userconfig: publisherRc, npm_config_registry: server.url };
}

/**
 * Publishes the workspace to `server` in `pnpm release`'s order: every public package but those a
 * CI job installs (one `pnpm -r publish`), then each forge plugin and the CLI, each after its
 * npm-shrinkwrap.json is written from the published tarballs. `step` reports each part; `cache` is the npm cache the shrinkwrap reads into.
 */
export async function publishWorkspace(
  server: Registry,
  packages: readonly { name: string; version: string; dir: string }[],
  publishEnv: NodeJS.ProcessEnv,
  cache: string,
  step: <T>(name: string, action: () => Promise<T>) => Promise<T>,
): Promise<void> {
  const isPublished = async (p: { name: string; version: string }): Promise<boolean> => {
    const response = await fetch(`${server.url}${p.name.replace('/', '%2f')}`);
    if (!response.ok) return false;
    const document = (await response.json()) as { versions: Record<string, { dependencies?: Record<string, string> }> };
    const published = document.versions[p.version];
    if (!published) return false;
    for (const [dep, range] of Object.entries(published.dependencies ?? {}))
      check(!range.startsWith('workspace:'), `${p.name} was published with ${dep}@${range}`);
    return true;
  };
  const publish = (current: { name: string; version: string; dir: string }): Promise<void> =>
    onceMoreOnFailure(
      `${current.name}: publish`,
      () =>
        run('pnpm', ['publish', '--registry', server.url, '--no-git-checks', '--access', 'public'], {
          cwd: current.dir,
          env: publishEnv,
          timeoutMs: 90_000,
        }),
      () => isPublished(current),
    );
  const { shrinkwrappedDirs, writeShrinkwrap } = (await import(
    pathToFileURL(path.join(root, 'scripts', 'shrinkwrap.mjs')).href
  )) as {
    shrinkwrappedDirs(): Promise<string[]>;
    writeShrinkwrap(
      dir: string,
      options: { registry: string; env: NodeJS.ProcessEnv; cache: string },
    ): Promise<{ packages: number }>;
  };
  // What a CI job installs (the forge plugins, then the CLI) goes last, each with its npm-shrinkwrap.json.
  const last = (await shrinkwrappedDirs()).map((dir) => packages.find((p) => path.resolve(p.dir) === dir)!);
  await step(
    `publish the ${packages.length - last.length} public packages the CLI and the forge plugins are made of (pnpm -r publish, as pnpm release runs it)`,
    async () => {
      // One pnpm for them all, as scripts/release.mjs runs it (it packs each, replacing the
      // workspace: ranges, and runs npm publish on the tarball): a pnpm process per package cost
      // as much CPU again as the publishing. A time limit, so that a publish that hangs fails the
      // step with pnpm's output (which names the package) instead of going silent; pnpm skips a
      // version the registry holds, so the second run publishes only what the first did not.
      const args = [
        '-r',
        ...last.flatMap((p) => ['--filter', `!${p.name}`]),
        'publish',
        '--registry',
        server.url,
        '--no-git-checks',
        '--access',
        'public',
      ];
      const options = { cwd: root, env: publishEnv, timeoutMs: 240_000 };
      await onceMoreOnFailure('pnpm -r publish', () => run('pnpm', args, options));
      for (const p of packages)
        if (!last.includes(p))
          check(await isPublished(p), `${p.name}@${p.version} is not on the registry after publishing`);
    },
  );
  for (const current of last)
    await step(
      `write ${current.name}'s npm-shrinkwrap.json from the published tarballs, then publish it (pnpm release's order)`,
      async () => {
        // The user's npm cache (empty until now): the package documents it fetches serve the installs below.
        const { packages: count } = await writeShrinkwrap(current.dir, {
          registry: server.url,
          env: publishEnv,
          cache,
        });
        process.stdout.write(`  ${count} packages in the shrinkwrap\n`);
        await publish(current);
        check(await isPublished(current), `${current.name}@${current.version} is not on the registry after publishing`);
      },
    );
}

/** Every shrinkwrap written against the local registry's tarballs (the CLI's and the forge plugins'): none may reach a real release. */
export async function removeShrinkwraps(): Promise<void> {
  const { shrinkwrappedDirs } = (await import(pathToFileURL(path.join(root, 'scripts', 'shrinkwrap.mjs')).href)) as {
    shrinkwrappedDirs(): Promise<string[]>;
  };
  for (const dir of await shrinkwrappedDirs()) await rm(path.join(dir, 'npm-shrinkwrap.json'), { force: true });
}

/**
 * Runs `action`, and once more when it fails, unless `done` finds its work there anyway (a publish
 * the registry recorded before the client gave up): the one retry of the check's publishing.
 */
async function onceMoreOnFailure(
  what: string,
  action: () => Promise<unknown>,
  done: () => Promise<boolean> = () => Promise.resolve(false),
): Promise<void> {
  try {
    await action();
  } catch (error) {
    if (await done()) return;
    const firstLine = (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';
    process.stdout.write(`  ${what} failed, trying once more: ${firstLine}\n`);
    await action();
  }
}
