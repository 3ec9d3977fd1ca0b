// `pnpm bench scan`: `cadence scan` over 20 repositories of 2,000 commits each, served by
// `git daemon` on 127.0.0.1. Three scans, timed in the same run:
//   1. at --concurrency 1, cold (no mirrors, no kept results): the baseline;
//   2. at --concurrency 2, cold: target within 0.7x the baseline (two cores at work);
//   3. the same scan again, nothing new: target within 0.15x scan 2 (mirrors fetched, results reused).
// Usage: node bench/scan.mjs [repositories=20] [commits=2000]
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateRepository } from './generate-repo.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const BIN = path.join(HERE, '..', 'host', 'bin', 'cadence.js');
const REPOSITORIES = Number(process.argv[2] ?? 20);
const COMMITS = Number(process.argv[3] ?? 2000);

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

async function waitForPort(port) {
  for (let i = 0; i < 100; i++) {
    const open = await new Promise((resolve) => {
      const socket = createServer().listen(port, '127.0.0.1');
      socket.once('error', () => resolve(true));
      socket.once('listening', () => socket.close(() => resolve(false)));
    });
    if (open) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`git daemon did not listen on ${port}`);
}

function scan(work, cacheDir, concurrency, out) {
  const config = path.join(work, `config-${path.basename(cacheDir)}.yaml`);
  writeFileSync(config, `cache:\n  repositories_dir: ${JSON.stringify(cacheDir)}\n`);
  const started = process.hrtime.bigint();
  const run = spawnSync(
    process.execPath,
    [
      BIN,
      'scan',
      '--repos',
      path.join(work, 'repos.txt'),
      '--concurrency',
      String(concurrency),
      '-o',
      path.join(work, out),
      '--config',
      config,
    ],
    { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
  );
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  if (run.status !== 0) throw new Error(`cadence scan exited ${run.status}: ${run.stderr.slice(0, 2000)}`);
  return seconds;
}

const work = mkdtempSync(path.join(tmpdir(), 'cadence-bench-scan-'));
let daemon;
try {
  const served = path.join(work, 'served');
  mkdirSync(served);
  const generated = Date.now();
  const source = path.join(work, 'source');
  await generateRepository(source, COMMITS);
  const urls = [];
  const port = await freePort();
  for (let i = 1; i <= REPOSITORIES; i++) {
    const name = `acme/repo${String(i).padStart(2, '0')}.git`;
    spawnSync('git', ['clone', '--quiet', '--bare', source, path.join(served, name)], { stdio: 'inherit' });
    urls.push(`git://127.0.0.1:${port}/${name}`);
  }
  writeFileSync(path.join(work, 'repos.txt'), `${urls.join('\n')}\n`);
  console.log(
    `${REPOSITORIES} repositories of ${COMMITS} commits ready in ${((Date.now() - generated) / 1000).toFixed(1)} s`,
  );
  daemon = spawn(
    'git',
    ['daemon', '--reuseaddr', `--base-path=${served}`, '--listen=127.0.0.1', `--port=${port}`, '--export-all', served],
    { stdio: 'ignore' },
  );
  await waitForPort(port);

  const one = scan(work, path.join(work, 'cache-c1'), 1, 'c1.json');
  console.log(`scan at --concurrency 1 (cold): ${one.toFixed(1)} s`);
  const two = scan(work, path.join(work, 'cache-c2'), 2, 'c2.json');
  console.log(`scan at --concurrency 2 (cold): ${two.toFixed(1)} s`);
  const again = scan(work, path.join(work, 'cache-c2'), 2, 'again.json');
  console.log(`the same scan again, nothing new: ${again.toFixed(1)} s`);
  const parallel = two / one;
  const repeat = again / two;
  console.log(
    `concurrency 2 against 1: ${parallel.toFixed(2)}x (target at most 0.70x) ${parallel <= 0.7 ? 'met' : 'NOT met'}`,
  );
  console.log(
    `second scan against the first: ${repeat.toFixed(2)}x (target at most 0.15x) ${repeat <= 0.15 ? 'met' : 'NOT met'}`,
  );
} finally {
  daemon?.kill();
  rmSync(work, { recursive: true, force: true });
}
