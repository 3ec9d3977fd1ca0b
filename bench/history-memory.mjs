// Peak memory (VmHWM) of the git children that read a history, on a repository made to exhaust it:
// two commits, a text file of 25 million one-character lines and then a one-byte change (a pack of
// about 50 KB). Plain `git log --numstat` (what the history reader ran before it bounded git) against
// the bounded git and `cadence analyze`, in the same run. Then the 50,000-commit history of
// bench/history.mjs, median of 3: the bounded git log against the plain one (target <= 1.05x), and
// cadence analyze against the plain git log (history.mjs's ratio, target <= 1.5x).
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { generateRepository, startFastImport } from './generate-repo.mjs';
import { runHistoryWorker } from './history-run.mjs';

const LINES = Number(process.env.BENCH_LINES ?? 25_000_000);
const COMMITS = Number(process.env.BENCH_COMMITS ?? 50_000);
const RUNS = 3;
const MIB = 1048576;

const run = runHistoryWorker;

/** The two commits of the finding, written with `git fast-import` (the 50 MB text is never on disk as a file). */
async function generateManyLines(dir, lines) {
  const started = startFastImport(dir);
  if (!started) return dir;
  const { importer, done } = started;
  const first = Buffer.from('a\n'.repeat(lines));
  const second = Buffer.from(first);
  second[0] = 0x62; // 'b': a one-byte change on the first line
  const commit = (mark, blob, time, message, from) =>
    `commit refs/heads/main\nmark :${mark}\nauthor Ada <ada@example.test> ${time} +0000\ncommitter Ada <ada@example.test> ${time} +0000\ndata ${message.length}\n${message}\n${from ? `from :${from}\n` : ''}M 100644 inline lines.txt\ndata ${blob.length}\n`;
  importer.stdin.write(commit(1, first, 1_700_000_000, 'many lines'));
  importer.stdin.write(first);
  importer.stdin.write('\n');
  importer.stdin.write(commit(2, second, 1_700_000_600, 'one byte', 1));
  importer.stdin.write(second);
  importer.stdin.end('\n');
  await done;
  // Deltas and compression: the pack the finding describes (about 50 KB).
  spawnSync('git', ['gc', '--quiet', '--aggressive', '--prune=now'], { cwd: dir, stdio: 'inherit' });
  return dir;
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
// 0: the git exited before the first sample could read its /proc status (within milliseconds).
const mb = (bytes) => (bytes === 0 ? '0 (exited before a sample)' : (bytes / MIB).toFixed(0));

const bigRepo = path.join(tmpdir(), `cadence-bench-lines-${LINES}`);
await generateManyLines(bigRepo, LINES);
const pack = spawnSync('git', ['count-objects', '-v'], { cwd: bigRepo, encoding: 'utf8' }).stdout.match(
  /size-pack: (\d+)/,
)?.[1];
console.log(`repository: 2 commits, ${LINES} lines, pack ${pack} KiB at ${bigRepo}`);

const plain = await run(['git-log', bigRepo], 'git log');
const bounded = await run(['git-log-bounded', bigRepo], 'bounded git log');
const analyzed = await run(['analyze', bigRepo], 'analyze');
console.log(
  `git log --numstat (unbounded, before): peak git VmHWM ${mb(plain.gitPeakBytes)} MiB, ${plain.seconds.toFixed(2)} s`,
);
console.log(
  `git log --numstat (bounded):           peak git VmHWM ${mb(bounded.gitPeakBytes)} MiB, ${bounded.seconds.toFixed(2)} s`,
);
console.log(
  `cadence analyze:                       peak git VmHWM ${mb(analyzed.gitPeakBytes)} MiB, ${analyzed.seconds.toFixed(2)} s, ${analyzed.commits} commits`,
);
const peakAfter = Math.max(bounded.gitPeakBytes, analyzed.gitPeakBytes);
console.log(
  `peak git VmHWM after/before: ${(peakAfter / plain.gitPeakBytes).toFixed(3)}; after ${mb(peakAfter)} MiB (target < 256 MiB) ${peakAfter < 256 * MIB ? 'OK' : 'MISSED'}`,
);

const repo = path.join(tmpdir(), `cadence-bench-${COMMITS}`);
await generateRepository(repo, COMMITS);
console.log(`\nrepository: ${COMMITS} commits at ${repo}`);
await run(['git-log', repo], 'warm-up');
const times = { plain: [], bounded: [], analyze: [] };
const peaks = { plain: [], bounded: [], analyze: [] };
for (let i = 0; i < RUNS; i++) {
  // Interleaved, so that a slow moment of a shared machine falls on all three alike.
  for (const [key, mode] of [
    ['plain', 'git-log'],
    ['bounded', 'git-log-bounded'],
    ['analyze', 'analyze'],
  ]) {
    const result = await run([mode, repo], key);
    times[key].push(result.seconds);
    peaks[key].push(result.gitPeakBytes);
  }
}
const show = (key) =>
  `median ${median(times[key]).toFixed(2)} s (${times[key].map((t) => t.toFixed(2)).join(', ')}), peak git VmHWM ${mb(Math.max(...peaks[key]))} MiB`;
console.log(`git log --numstat (unbounded): ${show('plain')}`);
console.log(`git log --numstat (bounded):   ${show('bounded')}`);
console.log(`cadence analyze:               ${show('analyze')}`);
const boundedRatio = median(times.bounded) / median(times.plain);
console.log(
  `bounded / unbounded git log, median of ${RUNS}: ${boundedRatio.toFixed(3)} (target <= 1.05) ${boundedRatio <= 1.05 ? 'OK' : 'MISSED'}`,
);
const analyzeRatio = median(times.analyze) / median(times.plain);
console.log(
  `cadence analyze / git log (bench/history.mjs's ratio), median of ${RUNS}: ${analyzeRatio.toFixed(3)} (target <= 1.5) ${analyzeRatio <= 1.5 ? 'OK' : 'MISSED'}`,
);
