/**
 * `pnpm release:check`: the packages as a user gets them. Starts a real Verdaccio on 127.0.0.1 (this
 * project's package names served only from it, everything else proxied to the public registry),
 * publishes every public workspace package to it (the CLI last, with the npm-shrinkwrap.json written
 * from the others' published tarballs, as `pnpm release` does), then, in an empty folder with an
 * empty npm cache, prefix and user configuration, installs and runs the CLI as a user would: global
 * install (the shrinkwrap's tree), version, analyze, the webhook server's /health, npx, the GitHub
 * Action's step in a pull request that plants programs and an .npmrc, the example plugin packed
 * from its folder and installed next to the global CLI, a project with the CLI and the plugin as devDependencies, and the
 * example plugin's own install, tests and type-check
 * against the published SDK and testkit.
 *
 * Prints each step and its duration; exits 1 on the first failure. No shell: every command is a
 * program with its arguments. Run after `pnpm install`; it builds first (`pnpm build`: tsc -b and the browser scripts' bundles, quick when built).
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmod, cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import {
  CheckFailure,
  check,
  CLI_PACKAGE,
  EXAMPLE,
  publicPackages,
  publishEnvironment,
  publishWorkspace,
  removeShrinkwraps,
  root,
  run,
  SCOPE,
  startVerdaccio,
  tail,
  type Registry,
} from './local-registry.js';
import { coldNpx } from '../../bench/cold-npx.mjs';

const SDK_PACKAGE = '@cadence-detect/plugin-sdk';
const SERVER_PACKAGE = '@cadence-detect/server';
/** The package that installs everything (docs/install.md). */
const UMBRELLA_PACKAGE = '@cadence-detect/cadence';
/** The ecosystem issue's target for the CI path: at most 40 MB installed. */
const LIGHT_CLI_MAX_BYTES = 40 * 1024 * 1024;

const EXAMPLE_DIR = path.join(root, 'examples', EXAMPLE);

const timings: { name: string; ms: number }[] = [];

async function step<T>(name: string, action: () => Promise<T>): Promise<T> {
  process.stdout.write(`▶ ${name}\n`);
  const started = performance.now();
  try {
    const value = await action();
    const ms = performance.now() - started;
    timings.push({ name, ms });
    process.stdout.write(`✓ ${name} (${seconds(ms)})\n`);
    return value;
  } catch (error) {
    process.stdout.write(`✗ ${name} (${seconds(performance.now() - started)})\n`);
    throw error;
  }
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

/** A repository with a whole 400-line file arriving in one commit: what the example plugin flags. */
async function makeRepository(dir: string, env: NodeJS.ProcessEnv): Promise<void> {
  await mkdir(path.join(dir, 'src'), { recursive: true });
  const git = (args: string[], date: number) =>
    run(
      'git',
      [
        '-c',
        'user.name=Release Check',
        '-c',
        'user.email=release@example.invalid',
        '-c',
        'commit.gpgsign=false',
        ...args,
      ],
      {
        cwd: dir,
        env: { ...env, GIT_AUTHOR_DATE: `@${date} +0000`, GIT_COMMITTER_DATE: `@${date} +0000` },
      },
    );
  const day = (n: number) => Date.UTC(2025, 0, n) / 1000;
  await git(['init', '-q', '-b', 'main'], day(1));
  await writeFile(path.join(dir, 'README.md'), Array.from({ length: 10 }, (_, i) => `line ${i}`).join('\n') + '\n');
  await git(['add', '-A'], day(1));
  await git(['commit', '-q', '-m', 'Initial import'], day(1));
  await writeFile(
    path.join(dir, 'src', 'parser.txt'),
    Array.from({ length: 400 }, (_, i) => `rule ${i} = token ${i}`).join('\n') + '\n',
  );
  await git(['add', '-A'], day(2));
  await git(['commit', '-q', '-m', 'Add the parser'], day(2));
  await writeFile(
    path.join(dir, 'README.md'),
    Array.from({ length: 10 }, (_, i) => `line ${i}`).join('\n') + '\nfixed\n',
  );
  await git(['add', '-A'], day(3));
  await git(['commit', '-q', '-m', 'Fix typo'], day(3));
}

/**
 * action.yml's `cadence` step run the way GitHub runs a composite step (test-support's
 * runActionStep: its script under `bash --noprofile --norc -eo pipefail`, its `env:` and
 * `working-directory:` resolved), against the published CLI at the action's own version, in a
 * clone whose pull request plants what npx would have run or read: `node_modules/.bin/cadence`,
 * `.bin/node`, `.bin/git` and an `.npmrc` naming a recording registry. None of them may run, the
 * recording registry gets no request; the step writes the outputs and the SARIF and passes. (How
 * each input reaches the CLI is tested in tests/security/ci-step-isolation.test.ts.)
 */
async function runActionStep(repo: string, work: string, userEnv: NodeJS.ProcessEnv): Promise<void> {
  const support = await import('@cadence-detect/test-support');
  const workspace = path.join(work, 'action-workspace');
  await run('git', ['clone', '--quiet', repo, workspace], { cwd: work, env: userEnv });
  const markers = path.join(work, 'action-markers');
  await mkdir(markers);
  await mkdir(path.join(workspace, 'node_modules', '.bin'), { recursive: true });
  for (const program of ['cadence', 'node', 'git', 'npm']) {
    const shim = path.join(workspace, 'node_modules', '.bin', program);
    await writeFile(shim, `#!/bin/sh\necho ran > ${JSON.stringify(path.join(markers, program))}\nexit 0\n`);
    await chmod(shim, 0o755);
  }
  const planted = await support.startNpmRegistry([]);
  try {
    await writeFile(path.join(workspace, '.npmrc'), `registry=${planted.url}\n`);
    const head = (await run('git', ['rev-parse', 'HEAD'], { cwd: workspace, env: userEnv })).stdout.trim();
    const base = (
      await run('git', ['rev-list', '--max-parents=0', 'HEAD'], { cwd: workspace, env: userEnv })
    ).stdout.trim();
    const runnerTemp = await mkdtemp(path.join(work, 'runner-temp-'));
    await writeFile(
      path.join(runnerTemp, 'event.json'),
      JSON.stringify({ action: 'opened', pull_request: { base: { sha: base }, head: { sha: head } } }),
    );
    const attempt = async (inputs: Record<string, string>) => {
      const output = path.join(runnerTemp, `output-${Object.values(inputs).join('-')}`);
      await writeFile(output, '');
      const ran = await support.runActionStep({
        actionPath: root,
        stepId: 'cadence',
        inputs: { config: '', base: '', ...inputs },
        workspace,
        runnerTemp,
        env: {
          ...userEnv,
          GITHUB_EVENT_NAME: 'pull_request',
          GITHUB_EVENT_PATH: path.join(runnerTemp, 'event.json'),
          GITHUB_OUTPUT: output,
          GITHUB_STEP_SUMMARY: path.join(runnerTemp, 'summary.md'),
        },
        timeoutMs: 300_000,
      });
      return { ...ran, outputs: await readFile(output, 'utf8') };
    };
    const passed = await attempt({ path: '.', 'fail-on': 'never', sarif: 'cadence.sarif' });
    check(passed.code === 0, `the action step failed (exit ${passed.code}):\n${tail(passed.stderr)}`);
    check(
      /^assessment=(clean|suspicious|likely_ai_generated)$/m.test(passed.outputs) &&
        /^flagged=\d+$/m.test(passed.outputs),
      `the action step wrote no outputs:\n${passed.outputs}`,
    );
    check(
      (await readFile(path.join(workspace, 'cadence.sarif'), 'utf8')).includes('"version": "2.1.0"'),
      'the action step wrote no SARIF',
    );
    const ranPlanted = await readdir(markers);
    check(ranPlanted.length === 0, `the pull request's planted programs ran: ${ranPlanted.join(', ')}`);
    check(
      planted.requests.length === 0,
      `npm asked the registry the pull request's .npmrc names: ${planted.requests.join(', ')}`,
    );
  } finally {
    await planted.close();
  }
}

/** The published package (the CLI, a forge plugin) carries npm-shrinkwrap.json, and a global install took exactly its tree. */
async function checkShrinkwrapInstalled(prefix: string, packageName = CLI_PACKAGE): Promise<number> {
  const installed = path.join(prefix, 'lib', 'node_modules', ...packageName.split('/'));
  const shrinkwrap = JSON.parse(
    await readFile(path.join(installed, 'npm-shrinkwrap.json'), 'utf8').catch(() => '{}'),
  ) as { packages?: Record<string, { version?: string; link?: boolean }> };
  check(shrinkwrap.packages, `the published ${packageName} has no npm-shrinkwrap.json`);
  let compared = 0;
  for (const [where, entry] of Object.entries(shrinkwrap.packages)) {
    if (!where || entry.link) continue;
    const manifest = JSON.parse(
      await readFile(path.join(installed, where, 'package.json'), 'utf8').catch(() => '{}'),
    ) as { version?: string };
    // Optional packages for other platforms are in the tree but not installed here.
    if (!manifest.version && (entry as { optional?: boolean }).optional) continue;
    check(
      manifest.version === entry.version,
      `${where} installed at ${manifest.version ?? 'nothing'}, the shrinkwrap says ${entry.version}`,
    );
    compared++;
  }
  return compared;
}

interface Report {
  detections: { strategy: string; message: string }[];
  strategy_results: { name: string; error: string | null }[];
}

function parseReport(stdout: string): Report {
  try {
    return JSON.parse(stdout) as Report;
  } catch {
    throw new CheckFailure(`cadence analyze --json printed no JSON:\n${tail(stdout)}`);
  }
}

/** `cadence webhook` on a free port: waits for its `listening` log line, asks /health, stops it. */
async function checkWebhook(cadence: string, cwd: string, env: NodeJS.ProcessEnv): Promise<number> {
  const child = spawn(cadence, ['webhook', '--port', '0', '--host', '127.0.0.1'], {
    cwd,
    env: {
      ...env,
      CADENCE_WEBHOOK_SECRET: 'release-check-secret-0123456789',
      CADENCE_CACHE_REPOSITORIES_DIR: path.join(cwd, '.cadence-mirrors'),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  try {
    const port = await new Promise<number>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new CheckFailure(`cadence webhook did not log "listening" within 30 s\n${tail(output)}`)),
        30_000,
      );
      let buffered = '';
      child.stdout.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        buffered += chunk.toString();
        const lines = buffered.split('\n');
        buffered = lines.pop() ?? '';
        for (const line of lines) {
          try {
            const record = JSON.parse(line) as { message?: string; port?: number };
            if (record.message === 'listening' && record.port) {
              clearTimeout(timer);
              resolve(record.port);
            }
          } catch {
            // not a log record
          }
        }
      });
      child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
      void exited.then((code) => {
        clearTimeout(timer);
        reject(new CheckFailure(`cadence webhook exited with ${code}\n${tail(output)}`));
      });
    });
    const response = await fetch(`http://127.0.0.1:${port}/health`);
    check(response.status === 200, `/health answered ${response.status}: ${await response.text()}`);
    return port;
  } finally {
    if (child.exitCode === null) child.kill('SIGTERM');
    const code = await Promise.race([
      exited,
      new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), 15_000)),
    ]);
    if (code === 'timeout') {
      child.kill('SIGKILL');
      // eslint-disable-next-line no-unsafe-finally -- a server that does not stop on SIGTERM fails the check, whatever came before
      throw new CheckFailure('cadence webhook did not stop within 15 s of SIGTERM');
    }
  }
}

async function main(): Promise<void> {
  const started = performance.now();
  const work = await mkdtemp(path.join(os.tmpdir(), 'cadence-release-check-'));
  let registry: Registry | null = null;
  try {
    // Inside the test suite the tree is built already (`pnpm test` and .ci/run build before any
    // test), and the other runs' processes are loading dist/ while this one would rewrite it.
    if (process.env.CADENCE_RELEASE_CHECK_BUILT === '1') {
      process.stdout.write('  the tree as the test suite built it (no second build)\n');
    } else {
      await step('build (pnpm build: tsc -b, then the browser scripts bundled)', () =>
        run('pnpm', ['build'], { cwd: root, env: process.env }),
      );
    }

    const packages = await step('list the public packages; the SDK version is the plugin API version', async () => {
      const list = await publicPackages();
      const sdk = list.find((p) => p.name === SDK_PACKAGE);
      check(sdk, `${SDK_PACKAGE} is not among the public packages`);
      const versionSource = await readFile(path.join(root, 'packages/plugin-sdk/src/version.ts'), 'utf8');
      const api = /PLUGIN_API_VERSION\s*=\s*'([^']+)'/.exec(versionSource)?.[1];
      check(
        api === sdk.version,
        `${SDK_PACKAGE} is ${sdk.version} but PLUGIN_API_VERSION is ${api}: they move together (docs/install.md)`,
      );
      check(
        list.some((p) => p.name === CLI_PACKAGE),
        `${CLI_PACKAGE} is not public`,
      );
      for (const p of list) check(p.name.startsWith(`${SCOPE}/`), `${p.name} is public but outside ${SCOPE}`);
      process.stdout.write(`  ${list.length} packages: ${list.map((p) => `${p.name}@${p.version}`).join(', ')}\n`);
      return list;
    });

    // The public registry npm is configured with on this machine is the uplink.
    const uplink = (
      await run('npm', ['config', 'get', 'registry'], {
        cwd: work,
        env: { PATH: process.env.PATH, HOME: process.env.HOME },
      })
    ).stdout.trim();
    const server = await step('start Verdaccio on 127.0.0.1', () => startVerdaccio(work, uplink));
    registry = server;
    process.stdout.write(`  ${server.url} (uplink ${uplink} for every name outside ${SCOPE}/* and ${EXAMPLE})\n`);

    const publishEnv = await step('create a throwaway registry user', () => publishEnvironment(server, work));
    await publishWorkspace(server, packages, publishEnv, path.join(work, 'npm-cache'), step);

    // The user's machine: an empty folder, an empty cache and prefix, no configuration but the registry.
    const home = path.join(work, 'home');
    const prefix = path.join(work, 'prefix');
    const userRc = path.join(work, 'user.npmrc');
    await mkdir(home);
    await mkdir(prefix);
    await writeFile(userRc, `registry=${server.url}\n`);
    const userPath = [
      path.join(prefix, 'bin'),
      ...(process.env.PATH ?? '').split(path.delimiter).filter((entry) => entry && !entry.includes('node_modules')),
    ].join(path.delimiter);
    const userEnv: NodeJS.ProcessEnv = {
      PATH: userPath,
      HOME: home,
      LANG: 'C.UTF-8',
      npm_config_cache: path.join(work, 'npm-cache'),
      npm_config_prefix: prefix,
      npm_config_userconfig: userRc,
      npm_config_globalconfig: path.join(work, 'global.npmrc'),
      npm_config_audit: 'false',
      npm_config_fund: 'false',
      npm_config_update_notifier: 'false',
      npm_config_loglevel: 'error',
      // A package document this machine's cache holds is used without asking again: every package
      // of this project is published before the first install, so the cache can hold no older one,
      // and each install asking the registry again for every document (typescript's and
      // @types/node's among them) cost the registry a fifth of the check's CPU.
      npm_config_prefer_offline: 'true',
      GIT_CONFIG_NOSYSTEM: '1',
    };
    const cadence = path.join(prefix, 'bin', 'cadence');

    await step(`npm install -g ${CLI_PACKAGE}`, async () => {
      const installed = await run('npm', ['install', '-g', CLI_PACKAGE], {
        cwd: home,
        env: userEnv,
        timeoutMs: 300_000,
      });
      // The supported Node versions install without an engine warning (a dependency asking for a newer Node).
      check(
        !/EBADENGINE/.test(installed.stderr + installed.stdout),
        `npm (on the Node of PATH) warned about an engine:\n${tail(installed.stderr)}`,
      );
    });

    await step('the global install took the tree npm-shrinkwrap.json fixes', async () => {
      process.stdout.write(`  ${await checkShrinkwrapInstalled(prefix)} packages at the shrinkwrap's versions\n`);
    });

    await step('cadence version', async () => {
      const cli = packages.find((p) => p.name === CLI_PACKAGE)!;
      const ran = await run(cadence, ['version'], { cwd: home, env: userEnv });
      check(
        ran.stdout.includes(cli.version),
        `cadence version printed ${JSON.stringify(ran.stdout)}, not ${cli.version}`,
      );
    });

    const repo = path.join(work, 'repo');
    await step('build a git repository in the temporary folder', () => makeRepository(repo, userEnv));

    await step('cadence analyze <repository> --json', async () => {
      const report = parseReport((await run(cadence, ['analyze', repo, '--json'], { cwd: home, env: userEnv })).stdout);
      for (const builtin of ['velocity', 'timing', 'size'])
        check(
          report.strategy_results.some((r) => r.name === builtin),
          `the built-in strategy ${builtin} did not run`,
        );
    });

    await step(
      'cadence analyze <repository> -o report.html: the published report carries its bundled script, allowed by its hash',
      async () => {
        const file = path.join(work, 'report.html');
        await run(cadence, ['analyze', repo, '-o', file], { cwd: home, env: userEnv, allowFailure: true });
        const page = await readFile(file, 'utf8');
        const script = /<script>([\s\S]*?)<\/script>/.exec(page)?.[1];
        check(
          script && script.includes('finding-controls'),
          'the HTML report has no bundled script (is dist/browser/ in the published @cadence-detect/reports?)',
        );
        const hash = `'sha256-${createHash('sha256').update(script).digest('base64')}'`;
        check(page.includes(`script-src ${hash}`), `the report's policy does not allow its script by its hash ${hash}`);
      },
    );

    await step(
      `the light CLI: cadence webhook and cadence scan github:acme name the package they need (exit 2)`,
      async () => {
        const ran = await run(cadence, ['webhook', '--port', '0', '--host', '127.0.0.1'], {
          cwd: home,
          env: { ...userEnv, CADENCE_WEBHOOK_SECRET: 'release-check-secret-0123456789' },
          allowFailure: true,
        });
        check(
          ran.code === 2 &&
            ran.stderr.trim() ===
              `cadence: cadence webhook needs ${SERVER_PACKAGE}, which is not installed: npm install -g ${SERVER_PACKAGE} (beside ${CLI_PACKAGE}), or install ${UMBRELLA_PACKAGE}, which brings everything`,
          `cadence webhook without the server exited ${ran.code}:\n${tail(ran.stderr)}`,
        );
        const scan = await run(cadence, ['scan', 'github:acme'], { cwd: home, env: userEnv, allowFailure: true });
        check(
          scan.code === 2 && scan.stderr.includes('listing github:<owner> needs @cadence-detect/plugin-github'),
          `cadence scan github:acme without the forge exited ${scan.code}:\n${tail(scan.stderr)}`,
        );
      },
    );

    await step(
      'a forge plugin beside the CLI, as a CI template installs it: its npm-shrinkwrap.json\u2019s tree, its runner listed by cadence ci --help',
      async () => {
        const forge = '@cadence-detect/plugin-gitlab';
        await run('npm', ['install', '-g', forge], { cwd: home, env: userEnv, timeoutMs: 300_000 });
        process.stdout.write(
          `  ${await checkShrinkwrapInstalled(prefix, forge)} packages at the shrinkwrap's versions\n`,
        );
        const listed = await run(cadence, ['ci', '--help'], { cwd: home, env: userEnv });
        check(
          /^ {2}gitlab +in a GitLab CI job/m.test(listed.stdout),
          `cadence ci --help lists no gitlab runner:\n${tail(listed.stdout)}`,
        );
        await run('npm', ['uninstall', '-g', forge], { cwd: home, env: userEnv, timeoutMs: 300_000 });
      },
    );

    await step(`npx ${CLI_PACKAGE} analyze . (in the repository)`, async () => {
      const ran = await run('npx', ['--yes', CLI_PACKAGE, 'analyze', '.'], {
        cwd: repo,
        env: userEnv,
        timeoutMs: 300_000,
      });
      check(/assessment|score/i.test(ran.stdout), `npx ... analyze . printed no verdict:\n${tail(ran.stdout)}`);
    });

    await step(
      'the GitHub Action\u2019s own step, as written (bash, inputs as it maps them), in a request that plants .bin programs and an .npmrc',
      async () => {
        await runActionStep(repo, work, userEnv);
      },
    );

    // The example is not published (nobody owns its name on the public registry, and this
    // registry refuses to look it up): users install it from its folder, packed, as docs/plugins.md says.
    const exampleTarball = await step(
      `npm pack examples/${EXAMPLE} (the docs' way to install the unpublished example)`,
      async () => {
        const packed = await run('npm', ['pack', EXAMPLE_DIR, '--pack-destination', work], { cwd: work, env: userEnv });
        const file = path.join(work, packed.stdout.trim().split('\n').pop()!);
        check(file.endsWith('.tgz'), `npm pack printed ${JSON.stringify(packed.stdout)}`);
        return file;
      },
    );

    await step(`npm install -g ${EXAMPLE} (its tarball, next to the global CLI)`, () =>
      run('npm', ['install', '-g', exampleTarball], { cwd: home, env: userEnv, timeoutMs: 300_000 }),
    );

    await step('cadence plugins lists the example; cadence analyze reports its detection', async () => {
      const listing = await run(cadence, ['plugins'], { cwd: home, env: userEnv });
      check(
        new RegExp(`loaded\\s+${EXAMPLE}\\s+1\\.0\\.0\\s+discovered`).test(listing.stdout),
        `cadence plugins does not list ${EXAMPLE} as loaded:\n${listing.stdout}`,
      );
      const report = parseReport((await run(cadence, ['analyze', repo, '--json'], { cwd: home, env: userEnv })).stdout);
      const drops = report.detections.filter((d) => d.strategy === 'file-drops');
      check(
        drops.length === 1 && drops[0]!.message.includes('src/parser.txt'),
        `expected one file-drops detection naming src/parser.txt, got ${JSON.stringify(drops)}`,
      );
    });

    await step(
      'a project with the CLI and the example as devDependencies: npx cadence plugins finds it there',
      async () => {
        const project = path.join(work, 'project');
        await mkdir(project);
        await writeFile(
          path.join(project, 'package.json'),
          JSON.stringify({ name: 'my-project', version: '1.0.0', private: true }),
        );
        await run('npm', ['install', '--save-dev', CLI_PACKAGE, exampleTarball], {
          cwd: project,
          env: userEnv,
          timeoutMs: 300_000,
        });
        const listing = await run('npx', ['cadence', 'plugins'], { cwd: project, env: userEnv });
        const where = path.join(project, 'node_modules', EXAMPLE);
        check(
          listing.stdout
            .split('\n')
            .some((line) => /^loaded\s/.test(line) && line.includes(EXAMPLE) && line.trimEnd().endsWith(where)),
          `npx cadence plugins in the project does not load ${EXAMPLE} from ${where}:\n${listing.stdout}`,
        );
      },
    );

    const examples = path.join(work, 'examples');
    await step('copy examples/ out of the repository', () =>
      cp(path.join(root, 'examples'), examples, {
        recursive: true,
        filter: (source) => !source.split(path.sep).includes('node_modules'),
      }),
    );
    const example = path.join(examples, EXAMPLE);
    await step(`${EXAMPLE}: npm install (the published SDK and testkit)`, () =>
      run('npm', ['install'], { cwd: example, env: userEnv, timeoutMs: 300_000 }),
    );
    await step(`${EXAMPLE}: npm test`, () => run('npm', ['test'], { cwd: example, env: userEnv }));
    await step(`${EXAMPLE}: npm run typecheck`, () => run('npm', ['run', 'typecheck'], { cwd: example, env: userEnv }));

    // The plugin starter, as docs/plugins.md begins: npm init, install, test, then beside the CLI.
    const starter = path.join(work, 'cadence-plugin-big-commits');
    await step('npm init @cadence-detect/plugin big-commits (the published starter)', () =>
      run('npm', ['init', '--yes', '@cadence-detect/plugin', 'big-commits'], { cwd: work, env: userEnv }),
    );
    await step('the new plugin: npm install, npm test, npm run typecheck', async () => {
      await run('npm', ['install'], { cwd: starter, env: userEnv, timeoutMs: 300_000 });
      const tested = await run('npm', ['test'], { cwd: starter, env: userEnv });
      check(
        /3 passing/.test(tested.stdout),
        `the new plugin's npm test did not pass its 3 cases:\n${tail(tested.stdout)}`,
      );
      await run('npm', ['run', 'typecheck'], { cwd: starter, env: userEnv });
    });
    await step(
      'the new plugin beside the CLI: cadence plugins lists it, cadence analyze runs its strategy',
      async () => {
        const packed = await run('npm', ['pack', starter, '--pack-destination', work], { cwd: work, env: userEnv });
        const tarball = path.join(work, packed.stdout.trim().split('\n').pop()!);
        await run('npm', ['install', '-g', tarball], { cwd: home, env: userEnv, timeoutMs: 300_000 });
        const listing = await run(cadence, ['plugins'], { cwd: home, env: userEnv });
        check(
          /loaded\s+cadence-plugin-big-commits\s+0\.1\.0\s+discovered/.test(listing.stdout),
          `cadence plugins does not list cadence-plugin-big-commits as loaded:\n${listing.stdout}`,
        );
        const report = parseReport(
          (await run(cadence, ['analyze', repo, '--json'], { cwd: home, env: userEnv })).stdout,
        );
        check(
          report.strategy_results.some((result) => result.name === 'big-commits' && result.error === null),
          `cadence analyze ran no big-commits strategy: ${JSON.stringify(report.strategy_results.map((r) => r.name))}`,
        );
      },
    );

    await step(
      `everything in one command: npm uninstall -g ${CLI_PACKAGE}, npm install -g ${UMBRELLA_PACKAGE}`,
      async () => {
        await run('npm', ['uninstall', '-g', CLI_PACKAGE], { cwd: home, env: userEnv, timeoutMs: 300_000 });
        const installed = await run('npm', ['install', '-g', UMBRELLA_PACKAGE], {
          cwd: home,
          env: userEnv,
          timeoutMs: 300_000,
        });
        check(
          !/EBADENGINE/.test(installed.stderr + installed.stdout),
          `npm (on the Node of PATH) warned about an engine:\n${tail(installed.stderr)}`,
        );
        // No package of the tree is one the registry marks deprecated (koa-compose 4.2.0 was).
        check(
          !/npm warn deprecated/i.test(installed.stderr + installed.stdout),
          `npm warned about a deprecated package:\n${tail(installed.stderr)}`,
        );
      },
    );

    await step('cadence webhook (the server beside the CLI) answers /health, then stops', async () => {
      const port = await checkWebhook(cadence, home, userEnv);
      process.stdout.write(`  listened on 127.0.0.1:${port}\n`);
    });

    await step(
      'a cold install of the light CLI: npx with an empty cache, packages from this registry\u2019s storage',
      async () => {
        // What it needs is in Verdaccio's storage now (the installs above fetched it), and its uplink
        // answers from that storage for maxage: no public registry in the check. Its time against
        // everything's is `pnpm bench install`'s to measure; here, what it installs.
        const light = coldNpx({
          env: userEnv,
          cache: path.join(work, 'cold-cache-light'),
          cwd: path.join(work, 'cold-light'),
          packageName: CLI_PACKAGE,
        });
        const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
        process.stdout.write(
          `  ${CLI_PACKAGE} (what ci, analyze and scan run): ${mb(light.bytes)} in ${light.packages} packages, cold npx ${seconds(light.ms)}; with an install script: ${light.withInstallScripts.join(', ') || 'none'}\n`,
        );
        check(
          light.withInstallScripts.length === 0,
          `${CLI_PACKAGE} installs packages with install scripts: ${light.withInstallScripts.join(', ')}`,
        );
        check(
          light.bytes <= LIGHT_CLI_MAX_BYTES,
          `${CLI_PACKAGE} installs ${mb(light.bytes)}, over ${mb(LIGHT_CLI_MAX_BYTES)}`,
        );
        check(
          !light.names.includes(SERVER_PACKAGE) &&
            !light.names.some((n) =>
              /^(bullmq|koa|openai|@anthropic-ai\/sdk|@octokit\/core|@gitbeaker\/rest|@cadence-detect\/plugin-(github|gitlab|gitea|bitbucket|ai-assist))$/.test(
                n,
              ),
            ),
          `${CLI_PACKAGE} still installs the server, the AI providers or the forges' clients: ${light.names.filter((n) => /bullmq|koa|openai|anthropic|octokit|gitbeaker|cadence-detect\/(server|plugin-(github|gitlab|gitea|bitbucket|ai-assist))/.test(n)).join(', ')}`,
        );
      },
    );
  } catch (error) {
    if (registry) process.stdout.write(`verdaccio's log (last lines):\n${tail(registry.log(), 30)}\n`);
    throw error;
  } finally {
    if (registry && registry.process.exitCode === null) {
      const stopped = new Promise((resolve) => registry!.process.once('exit', resolve));
      registry.process.kill('SIGTERM');
      await Promise.race([stopped, new Promise((resolve) => setTimeout(resolve, 5_000))]);
      if (registry.process.exitCode === null) registry.process.kill('SIGKILL');
    }
    // A shrinkwrap written against this registry's tarballs must never reach a real release.
    await removeShrinkwraps();
    if (process.env.CADENCE_RELEASE_CHECK_KEEP) process.stdout.write(`kept ${work}\n`);
    else await rm(work, { recursive: true, force: true });
  }
  process.stdout.write('\nsteps:\n');
  for (const t of timings) process.stdout.write(`  ${seconds(t.ms).padStart(8)}  ${t.name}\n`);
  process.stdout.write(`release check passed in ${seconds(performance.now() - started)}\n`);
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`release check failed: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
