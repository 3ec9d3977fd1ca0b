// What the test suite needs beyond Node.js, pnpm and git, installed when missing (`pnpm test` and
// .ci/run both start here). As root on Debian or Ubuntu, missing packages are installed with apt-get;
// otherwise one line says what to install, and the tests that need it fail saying why.
import { spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import path from 'node:path';

/** A command the tests run, and the Debian package that brings it. */
const NEEDED = [
  // The browser tests drive Debian's Chromium with playwright-core (never a downloaded browser); CADENCE_CHROMIUM names another.
  {
    command: process.env.CADENCE_CHROMIUM || 'chromium',
    pkg: 'chromium',
    why: 'browser tests (or set CADENCE_CHROMIUM to a Chromium binary)',
  },
  // The Redis backend's tests start redis-server processes of their own.
  { command: 'redis-server', pkg: 'redis-server', why: 'Redis backend tests' },
  // `ip` and `unshare` make the loopback-only network namespace of the hostile-URL tests.
  { command: 'ip', pkg: 'iproute2', why: 'loopback-only network namespace' },
  { command: 'unshare', pkg: 'util-linux', why: 'loopback-only network namespace' },
  { command: 'prlimit', pkg: 'util-linux', why: 'the git memory ceiling' },
  // The hostile-URL tests pin the real ssh client.
  { command: 'ssh', pkg: 'openssh-client', why: 'ssh URL tests' },
];

function found(command) {
  if (command.includes('/')) return canRun(command);
  return (process.env.PATH ?? '').split(path.delimiter).some((dir) => dir && canRun(path.join(dir, command)));
}

function canRun(file) {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

const missing = NEEDED.filter((n) => !found(n.command));
const packages = [...new Set(missing.map((n) => n.pkg))];
// `--missing`: the packages a fresh machine lacks, one per line, installing nothing (.ci/run starts
// the tests beside the install when Chromium is all that is missing: the browser tests run last and
// wait for it).
if (process.argv.includes('--missing')) {
  if (packages.length > 0) console.log(packages.join('\n'));
  process.exit(0);
}
if (packages.length === 0) process.exit(0);
const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
if (isRoot && found('apt-get')) {
  console.error(`installing ${packages.join(' ')} (apt-get) for: ${missing.map((n) => n.why).join(', ')}`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const update = spawnSync('apt-get', ['update', '-qq'], { stdio: ['ignore', 'ignore', 'inherit'], env });
  const install =
    update.status === 0
      ? spawnSync('apt-get', ['install', '-y', '-qq', ...packages], { stdio: ['ignore', 'ignore', 'inherit'], env })
      : update;
  if (install.status === 0) process.exit(0);
  console.error(`could not install ${packages.join(' ')}: the tests that need them will fail and say why`);
} else {
  console.error(
    `the tests need ${packages.join(', ')} (${missing.map((n) => n.why).join('; ')}): install them with \`sudo apt-get install ${packages.join(' ')}\`; the tests that need them fail until then`,
  );
}
// Never a reason not to run the rest of the suite.
process.exit(0);
