// How fast the CLI starts, as ratios against a bare `node -e 0` measured in the same run:
// `cadence version` and `cadence --help` (target: within 3x), and `cadence analyze` of a
// 50-commit repository (target: within 1.5 s). Medians of several runs, each a fresh process.
// Beside them, what TypeBox costs a start: its package's modules (`typebox` and `typebox/value`, as
// the host loaded them before plugin API 1.14) against the SDK's one-module copy, which it loads now.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateRepository } from './generate-repo.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const BIN = path.join(here, '..', 'host', 'bin', 'cadence.js');
const SDK = path.join(here, '..', 'packages', 'plugin-sdk');
const RUNS = Number(process.env.BENCH_RUNS ?? 9);
// Every process gets only PATH and HOME: NODE_OPTIONS or NODE_EXTRA_CA_CERTS (which reads a CA
// bundle at every start, tens of milliseconds) would add the same cost to the baseline and to the
// CLI, and the ratios would flatter the CLI.
const ENV = { PATH: process.env.PATH, HOME: process.env.HOME };

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

function once(args, cwd) {
  const started = process.hrtime.bigint();
  const result = spawnSync(process.execPath, args, { cwd, env: ENV, stdio: ['ignore', 'ignore', 'pipe'] });
  if (result.status !== 0) throw new Error(`${args.join(' ')} exited ${result.status}: ${result.stderr}`);
  return Number(process.hrtime.bigint() - started) / 1e9;
}

const dir = mkdtempSync(path.join(tmpdir(), 'cadence-cli-bench-'));
try {
  await generateRepository(dir, 50);
  const cases = {
    bare: ['-e', '0'],
    version: [BIN, 'version'],
    help: [BIN, '--help'],
    analyze: [BIN, 'analyze', '.', '--json'],
    typeboxModules: ['--input-type=module', '-e', "await import('typebox'); await import('typebox/value');"],
    typeboxBundle: ['--input-type=module', '-e', "await import('@cadence-detect/plugin-sdk/typebox');"],
  };
  // The TypeBox cases resolve from the SDK's folder, where both are installed.
  const cwdOf = (name) => (name.startsWith('typebox') ? SDK : dir);
  // One unmeasured run each warms the page cache; then the cases take turns, so a busy moment of
  // the machine falls on all of them rather than on one.
  for (const [name, args] of Object.entries(cases)) once(args, cwdOf(name));
  const times = Object.fromEntries(Object.keys(cases).map((name) => [name, []]));
  for (let i = 0; i < RUNS; i++)
    for (const [name, args] of Object.entries(cases)) times[name].push(once(args, cwdOf(name)));
  const [bare, version, help, analyze, typeboxModules, typeboxBundle] = Object.keys(cases).map((name) =>
    median(times[name]),
  );
  const line = (label, seconds, target) =>
    console.log(`${label.padEnd(29)} ${seconds.toFixed(3)} s  ${(seconds / bare).toFixed(2)}x node -e 0  ${target}`);
  console.log(`median of ${RUNS} runs each, node ${process.version}, environment PATH and HOME only`);
  line('node -e 0 (baseline)', bare, '');
  line('cadence version', version, version / bare <= 3 ? '(target <= 3x) OK' : '(target <= 3x) MISSED');
  line('cadence --help', help, help / bare <= 3 ? '(target <= 3x) OK' : '(target <= 3x) MISSED');
  line('cadence analyze (50 commits)', analyze, analyze <= 1.5 ? '(target <= 1.5 s) OK' : '(target <= 1.5 s) MISSED');
  line('TypeBox as its modules', typeboxModules, '');
  line('TypeBox as the SDK module', typeboxBundle, '');
  const cost = (seconds) => Math.max(seconds - bare, 0.001);
  console.log(
    `TypeBox's cost to a start: ${(cost(typeboxBundle) / cost(typeboxModules)).toFixed(2)}x as one module (${Math.round(cost(typeboxModules) * 1000)} ms as modules, ${Math.round(cost(typeboxBundle) * 1000)} ms as one)`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
