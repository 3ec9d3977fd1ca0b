// `pnpm bench install [<commit>]`: what a CI job waits for before Cadence runs. Builds <commit> (by
// default f1f41a2, the commit before the ecosystem issue's first change) in a worktree beside this
// checkout, publishes each tree to a Verdaccio of its own (`pnpm release:local`), loads each
// registry's storage once, then, in turns, runs `npx --yes <package> version` with an empty npm cache
// against each: the cold install the GitHub Action and `npx` do. Prints each path's installed size,
// package count and best cold time, and the CI path's ratio to the commit's CLI. Targets: the CLI
// CI installs at most 40 MB and at most 0.25x the commit's cold time.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { baselineTree, root } from './baseline-tree.mjs';
import { coldNpx } from './cold-npx.mjs';

const ROUNDS = 3;
const MAX_BYTES = 40 * 1024 * 1024;
const MAX_TIME_RATIO = 0.25;
const ref = process.argv[2] ?? 'f1f41a2';

function run(command, args, options) {
  const out = spawnSync(command, args, { encoding: 'utf8', ...options });
  if (out.status !== 0)
    throw new Error(`${command} ${args.join(' ')} exited ${out.status}\n${out.stderr.slice(-2000)}`);
  return out.stdout;
}

/** Publishes a tree's packages to a registry left running (its pnpm release:local); returns its URL. */
function publish(tree) {
  run('pnpm', ['-s', 'release:local'], { cwd: tree, stdio: ['ignore', 'ignore', 'pipe'] });
  return JSON.parse(readFileSync(path.join(tree, '.release-local', 'state.json'), 'utf8')).url;
}

const work = mkdtempSync(path.join(tmpdir(), 'cadence-bench-install-'));
/** A user with nothing but the registry: an empty HOME, no configuration, a cache per install. */
function userEnv(registry, cache) {
  const rc = path.join(work, `${new URL(registry).port}.npmrc`);
  writeFileSync(rc, `registry=${registry}\n`);
  return {
    PATH: process.env.PATH,
    HOME: work,
    npm_config_userconfig: rc,
    npm_config_globalconfig: path.join(work, 'none.npmrc'),
    npm_config_cache: cache,
    npm_config_audit: 'false',
    npm_config_fund: 'false',
    npm_config_update_notifier: 'false',
    npm_config_loglevel: 'error',
  };
}

let round = 0;
/** One cold `npx` under an empty cache of its own. */
function coldInstall(registry, packageName, bin) {
  round++;
  const cache = path.join(work, `cache-${round}`);
  return coldNpx({ env: userEnv(registry, cache), cache, cwd: path.join(work, `cwd-${round}`), packageName, bin });
}

const { commit, tree } = baselineTree(ref);
const sides = [];
try {
  console.log(`publishing ${commit.slice(0, 7)} and this checkout to a registry each (pnpm release:local)`);
  const baselineRegistry = publish(tree);
  const currentRegistry = publish(root);
  const paths = [
    {
      name: `${commit.slice(0, 7)}: @cadence-detect/cli (everything, before the split)`,
      registry: baselineRegistry,
      pkg: '@cadence-detect/cli',
    },
    {
      name: 'now: @cadence-detect/cli (what the Action and npx install)',
      registry: currentRegistry,
      pkg: '@cadence-detect/cli',
      ci: true,
    },
    {
      name: 'now: @cadence-detect/cadence (everything)',
      registry: currentRegistry,
      pkg: '@cadence-detect/cadence',
      bin: 'cadence',
    },
  ];
  // Each registry's storage loaded once (third-party packages fetched through its uplink), so that
  // no public registry is in the measured installs.
  for (const p of paths) coldInstall(p.registry, p.pkg, p.bin);
  for (const p of paths) sides.push({ ...p, times: [], bytes: 0, packages: 0 });
  for (let r = 1; r <= ROUNDS; r++) {
    for (const side of sides) {
      const measured = coldInstall(side.registry, side.pkg, side.bin);
      side.times.push(measured.ms);
      side.bytes = measured.bytes;
      side.packages = measured.packages;
      console.log(`  round ${r}: ${side.name}: ${(measured.ms / 1000).toFixed(1)} s`);
    }
  }
} finally {
  for (const t of [tree, root]) spawnSync('pnpm', ['-s', 'release:local', 'stop'], { cwd: t, stdio: 'ignore' });
  rmSync(work, { recursive: true, force: true });
}
const mb = (bytes) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
console.log(`\ncold npx <package> version, an empty cache each time, best of ${ROUNDS}:`);
for (const s of sides)
  console.log(`  ${s.name}: ${mb(s.bytes)} in ${s.packages} packages, ${(Math.min(...s.times) / 1000).toFixed(1)} s`);
const [before, ci] = sides;
const sizeOk = ci.bytes <= MAX_BYTES;
const ratio = Math.min(...ci.times) / Math.min(...before.times);
console.log(`installed size of the CI path: ${mb(ci.bytes)} (target <= ${mb(MAX_BYTES)}) ${sizeOk ? 'OK' : 'MISSED'}`);
console.log(
  `cold npx time of the CI path / ${commit.slice(0, 7)}'s: ${ratio.toFixed(2)}x (target <= ${MAX_TIME_RATIO}) ${ratio <= MAX_TIME_RATIO ? 'OK' : 'MISSED'}`,
);
