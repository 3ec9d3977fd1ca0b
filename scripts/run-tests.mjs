// `pnpm test`'s mocha part: every test once, in two runs side by side (the machine's cores are
// otherwise half idle while one run waits on servers, git and npm). The backend tier
// (tests/tiers.mjs: the release check, the servers that keep jobs, the CLI smoke slice) runs in a
// second mocha whose output follows the first's; the rest runs here, its output live. Exits
// non-zero when either run failed. Arguments after `--` go to both runs.
import { spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { BACKEND_TIER } from '../tests/tiers.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const mocha = path.join(root, 'node_modules', 'mocha', 'bin', 'mocha.js');
const extra = process.argv.slice(2);

function run(args, output) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [mocha, ...args, ...extra], {
      cwd: root,
      stdio: ['ignore', output ?? 'inherit', output ?? 'inherit'],
    });
    child.on('close', (code) => resolve(code ?? 1));
  });
}

const dir = await mkdtemp(path.join(tmpdir(), 'cadence-tests-'));
const logFile = path.join(dir, 'backend-tier.log');
const log = createWriteStream(logFile);
await new Promise((resolve) => log.once('open', resolve));
console.log(
  `the backend tier (${BACKEND_TIER.length} entries of tests/tiers.mjs) runs beside this one; its output follows`,
);
const [rest, tier] = await Promise.all([
  run(BACKEND_TIER.flatMap((spec) => ['--ignore', spec])),
  run(
    [
      '--no-config',
      '--import=tsx',
      '--extension',
      'ts',
      '--timeout',
      '30000',
      '--slow',
      '2000',
      '--exit',
      ...BACKEND_TIER.flatMap((spec) => ['--spec', spec]),
    ],
    log,
  ),
]);
log.end();
console.log('\n== the backend tier (tests/tiers.mjs)');
process.stdout.write(await readFile(logFile, 'utf8'));
await rm(dir, { recursive: true, force: true });
process.exit(rest === 0 && tier === 0 ? 0 : 1);
