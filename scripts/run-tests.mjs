// `pnpm test`'s mocha part: every test once, in three runs side by side (the machine's cores are
// otherwise half idle while a run waits on servers, git and npm). tests/tiers.mjs names the files of
// the two side runs (the backend tier; the release check and the tests that mostly wait on timers);
// the rest runs here, its output live, and the side runs' output follows. Exits non-zero when any
// run failed. Arguments after `--` go to every run.
import { spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { BACKEND_TIER, WAITING_TIER } from '../tests/tiers.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const mocha = path.join(root, 'node_modules', 'mocha', 'bin', 'mocha.js');
const extra = process.argv.slice(2);

// The tests run as on a fresh machine: none of the user's git configuration (no identity, no
// signing, no aliases), so a test that commits or tags in a repository it creates must set its own.
// The line pass a whole-history analysis keeps between runs goes to a cache folder of this run's own
// ($XDG_CACHE_HOME/cadence), never the user's.
const cacheHome = await mkdtemp(path.join(tmpdir(), 'cadence-tests-cache-'));
const env = { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1', XDG_CACHE_HOME: cacheHome };

function run(args, output) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [mocha, ...args, ...extra], {
      cwd: root,
      env,
      stdio: ['ignore', output ?? 'inherit', output ?? 'inherit'],
    });
    child.on('close', (code) => resolve(code ?? 1));
  });
}

const dir = await mkdtemp(path.join(tmpdir(), 'cadence-tests-'));
const sideTiers = [
  { name: 'the backend tier', specs: BACKEND_TIER },
  { name: 'the waiting tier', specs: WAITING_TIER },
];
console.log(
  `${sideTiers.map((t) => `${t.name} (${t.specs.length} entries)`).join(' and ')} of tests/tiers.mjs run beside this one; their output follows`,
);
const side = sideTiers.map(async (tier, i) => {
  const logFile = path.join(dir, `tier-${i}.log`);
  const log = createWriteStream(logFile);
  await new Promise((resolve) => log.once('open', resolve));
  const args = ['--no-config', '--import=tsx', '--extension', 'ts', '--timeout', '30000', '--slow', '2000', '--exit'];
  const code = await run([...args, ...tier.specs.flatMap((spec) => ['--spec', spec])], log);
  await new Promise((resolve) => log.end(resolve));
  return { ...tier, code, logFile };
});
const rest = await run([...BACKEND_TIER, ...WAITING_TIER].flatMap((spec) => ['--ignore', spec]));
const tiers = await Promise.all(side);
for (const tier of tiers) {
  console.log(`\n== ${tier.name} (tests/tiers.mjs)`);
  process.stdout.write(await readFile(tier.logFile, 'utf8'));
}
await rm(dir, { recursive: true, force: true });
await rm(cacheHome, { recursive: true, force: true });
process.exit(rest === 0 && tiers.every((t) => t.code === 0) ? 0 : 1);
