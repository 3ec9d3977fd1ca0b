// How fast the CLI starts, as ratios against a bare `node -e 0` measured in the same run:
// `cadence version` and `cadence --help` (target: within 3x), and `cadence analyze` of a
// 50-commit repository (target: within 1.5 s). Medians of several runs, each a fresh process.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateRepository } from './generate-repo.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const BIN = path.join(here, '..', 'host', 'bin', 'cadence.js');
const RUNS = Number(process.env.BENCH_RUNS ?? 7);

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

function time(args, cwd) {
  const seconds = [];
  for (let i = 0; i < RUNS; i++) {
    const started = process.hrtime.bigint();
    // PATH and HOME only: an inherited NODE_OPTIONS or NODE_EXTRA_CA_CERTS slows every start alike and flatters the ratios.
    const result = spawnSync(process.execPath, args, { cwd, stdio: ['ignore', 'ignore', 'pipe'], env: { PATH: process.env.PATH, HOME: process.env.HOME } });
    if (result.status !== 0) throw new Error(`${args.join(' ')} exited ${result.status}: ${result.stderr}`);
    seconds.push(Number(process.hrtime.bigint() - started) / 1e9);
  }
  return median(seconds);
}

const dir = mkdtempSync(path.join(tmpdir(), 'cadence-cli-bench-'));
try {
  await generateRepository(dir, 50);
  const bare = time(['-e', '0'], dir);
  const version = time([BIN, 'version'], dir);
  const help = time([BIN, '--help'], dir);
  const analyze = time([BIN, 'analyze', '.', '--json'], dir);
  const line = (label, seconds, target) => console.log(`${label.padEnd(26)} ${seconds.toFixed(3)} s  ${(seconds / bare).toFixed(2)}x node -e 0  ${target}`);
  console.log(`median of ${RUNS} runs each, node ${process.version}`);
  line('node -e 0 (baseline)', bare, '');
  line('cadence version', version, version / bare <= 3 ? '(target <= 3x) OK' : '(target <= 3x) MISSED');
  line('cadence --help', help, help / bare <= 3 ? '(target <= 3x) OK' : '(target <= 3x) MISSED');
  line('cadence analyze (50 commits)', analyze, analyze <= 1.5 ? '(target <= 1.5 s) OK' : '(target <= 1.5 s) MISSED');
} finally {
  rmSync(dir, { recursive: true, force: true });
}
