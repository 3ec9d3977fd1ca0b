// Analysis time and peak memory of `cadence analyze` on a 50,000-commit repository, the default
// (lines on) and --no-lines, as ratios against plain `git log --numstat` and the line replay's
// `git log --first-parent -p -U0 -w -M` on the same repository in the same run (BENCH_ROUNDS rounds, 3 by
// default: each ratio is the median of the ratios taken within a round).
// Each side runs in its own process; peak RSS counts that process and its git child.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { generateEditHistory } from './generate-edits.mjs';
import { runHistoryWorker } from './history-run.mjs';

const COMMITS = Number(process.env.BENCH_COMMITS ?? 50_000);

const run = runHistoryWorker;
/** A worker whose $XDG_CACHE_HOME is `cache`. */
const runWithCache = (args, label, cache) => {
  const saved = process.env.XDG_CACHE_HOME;
  process.env.XDG_CACHE_HOME = cache;
  const running = runHistoryWorker(args, label);
  process.env.XDG_CACHE_HOME = saved;
  return running;
};

// Partial edits, insertions, deletions, renames and pull requests merged with --no-ff (generate-edits.mjs).
const repo = path.join(tmpdir(), `cadence-bench-edits-${COMMITS}`);
const genStarted = Date.now();
await generateEditHistory(repo, COMMITS);
console.log(`repository: ${COMMITS} commits at ${repo} (ready in ${((Date.now() - genStarted) / 1000).toFixed(1)} s)`);

// The line pass is kept between runs ($XDG_CACHE_HOME/cadence): a folder of this run's own, empty
// at first, so the first analysis is a cold one.
const cacheHome = mkdtempSync(path.join(tmpdir(), 'cadence-bench-cache-'));
process.env.XDG_CACHE_HOME = cacheHome;
process.on('exit', () => rmSync(cacheHome, { recursive: true, force: true }));

// Warm the page cache once so that no side pays for the first read.
await run(['git-log', repo], 'warm-up');
// ROUNDS rounds of the four sides, one after another: this 2-core machine's speed drifts by a
// tenth or more within minutes, so each ratio is taken within a round and the median of the
// rounds' ratios is the figure (each side's times are printed too). Each round's default analysis
// starts from an empty line-pass cache folder: every one is cold.
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const rounds = [];
let cacheOfLastRound = cacheHome;
for (let round = 0; round < ROUNDS; round++) {
  const baseline = await run(['git-log', repo], 'git log');
  const patches = await run(['git-log-p', repo], 'git log -p');
  cacheOfLastRound = mkdtempSync(path.join(cacheHome, 'round-'));
  const analysis = await runWithCache(['analyze', repo], 'analyze', cacheOfLastRound);
  const verdicts = await run(['analyze-no-lines', repo], 'analyze --no-lines');
  rounds.push({ baseline, patches, analysis, verdicts });
}
const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};
/** The round whose default analysis took the median time: its figures stand for the side's. */
const medianRound = [...rounds].sort((a, b) => a.analysis.seconds - b.analysis.seconds)[Math.floor(ROUNDS / 2)];
const { baseline, patches, analysis, verdicts } = medianRound;
// The line pass alone, timed inside its process, cold (its own empty cache folder) and after one
// new commit below: the difference of two whole analyses is within the machine's noise.
const passCache = mkdtempSync(path.join(tmpdir(), 'cadence-bench-pass-'));
process.on('exit', () => rmSync(passCache, { recursive: true, force: true }));
const runPass = (label) => runWithCache(['line-pass', repo], label, passCache);
const passCold = await runPass('line pass (cold)');
// One new commit, then the default analysis again: only that commit is replayed. The commit is
// taken back afterwards, so the generated repository stays as it was for the next run.
const git = (...args) =>
  spawnSync('git', ['-c', 'user.name=Bench', '-c', 'user.email=bench@example.test', ...args], { cwd: repo });
const before = spawnSync('git', ['rev-parse', 'HEAD'], { cwd: repo, encoding: 'utf8' }).stdout.trim();
writeFileSync(path.join(repo, 'src', 'bench-next.txt'), 'one more line\n');
git('add', 'src/bench-next.txt');
git('commit', '-q', '-m', 'One more commit');
const next = await runWithCache(['analyze', repo], 'analyze after one new commit', cacheOfLastRound);
const passNext = await runPass('line pass after one new commit');
git('reset', '-q', '--hard', before);
const mb = (bytes) => (bytes / 1048576).toFixed(0);
const MIB300 = 300 * 1048576;
const times = (pick) => rounds.map((r) => pick(r).seconds.toFixed(2)).join(', ');
console.log(
  `${ROUNDS} rounds; each side's times in order, then the figures of the round whose default analysis is the median`,
);
console.log(
  `git log --numstat:                   ${times((r) => r.baseline)} s; peak RSS ${mb(baseline.gitPeakBytes)} MB`,
);
console.log(
  `git log --first-parent -p -U0 -w -M: ${times((r) => r.patches)} s; peak RSS ${mb(patches.gitPeakBytes)} MB`,
);
for (const [label, pick] of [
  ['cadence analyze (the default, lines on)', (r) => r.analysis],
  ['cadence analyze --no-lines', (r) => r.verdicts],
]) {
  const side = pick(medianRound);
  const peak = (key) => Math.max(...rounds.map((r) => pick(r)[key]));
  console.log(
    `${label}: ${times(pick)} s; highest peaks: Cadence process ${mb(peak('nodePeakBytes'))} MB, largest git child ${mb(peak('gitPeakBytes'))} MB; ${side.commits} commits, score ${side.score}${side.linesCounted === null ? `, lines skipped: ${side.linesSkipped}` : `, ${side.linesCounted} lines counted`}`,
  );
}
console.log(`cadence analyze after one new commit: ${next.seconds.toFixed(2)} s, ${next.linesCounted} lines counted`);
const ratio = (a, b) => a.seconds / b.seconds;
const verdict = (ok) => (ok ? 'OK' : 'MISSED');
/** The median over the rounds of a ratio taken within each round, and the rounds' own. */
const roundRatio = (a, b) => {
  const each = rounds.map((r) => ratio(a(r), b(r)));
  return { value: median(each), each: each.map((x) => x.toFixed(2)).join(', ') };
};
const defaultOverPatches = roundRatio(
  (r) => r.analysis,
  (r) => r.patches,
);
const defaultOverNumstat = roundRatio(
  (r) => r.analysis,
  (r) => r.baseline,
);
const verdictsOverNumstat = roundRatio(
  (r) => r.verdicts,
  (r) => r.baseline,
);
console.log(
  `default: ${defaultOverPatches.value.toFixed(2)}x the -p read, median of rounds (${defaultOverPatches.each}) (target <= 2) ${verdict(defaultOverPatches.value <= 2)}, ${defaultOverNumstat.value.toFixed(2)}x --numstat (${defaultOverNumstat.each})`,
);
console.log(
  `--no-lines: ${verdictsOverNumstat.value.toFixed(2)}x --numstat, median of rounds (${verdictsOverNumstat.each}) (target <= 1.5) ${verdict(verdictsOverNumstat.value <= 1.5)}`,
);
// The whole analysis after one new commit, against the cold one and against --no-lines: the kept
// pass carries its lines and each commit's counts forward, so neither the pass nor the history
// read diffs the old commits again. The line pass's own target is checked below, timed in its process.
console.log(
  `the default analysis after one new commit: ${ratio(next, analysis).toFixed(2)}x the median round's first, ${ratio(next, verdicts).toFixed(2)}x its --no-lines (the history read lists the commits and the strategies run again)`,
);
const passRatio = passNext.passSeconds / passCold.passSeconds;
console.log(
  `the line pass alone, timed in its process: ${passCold.passSeconds.toFixed(2)} s cold, ${passNext.passSeconds.toFixed(2)} s after one new commit (${passNext.resumed ? 'carried forward' : 'NOT carried forward'}): ${passRatio.toFixed(3)}x (target <= 0.1) ${verdict(passRatio <= 0.1 && passNext.resumed)}`,
);
for (const [label, pick] of [
  ['default', (r) => r.analysis],
  ['--no-lines', (r) => r.verdicts],
]) {
  const node = Math.max(...rounds.map((r) => pick(r).nodePeakBytes));
  const git = Math.max(...rounds.map((r) => pick(r).gitPeakBytes));
  console.log(
    `${label} peaks, highest of the rounds: Cadence process ${mb(node)} MB ${verdict(node < MIB300)}, largest git child ${mb(git)} MB ${verdict(git < MIB300)} (targets < 300 MB)`,
  );
}
