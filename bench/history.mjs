// Analysis time and peak memory of `cadence analyze` on a 50,000-commit repository, the default
// (lines on) and --no-lines, as ratios against plain `git log --numstat` and the line replay's
// `git log --first-parent -p -U0 -w -M` on the same repository in the same run.
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
const baseline = await run(['git-log', repo], 'git log');
const patches = await run(['git-log-p', repo], 'git log -p');
const analysis = await run(['analyze', repo], 'analyze');
const verdicts = await run(['analyze-no-lines', repo], 'analyze --no-lines');
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
const next = await run(['analyze', repo], 'analyze after one new commit');
const passNext = await runPass('line pass after one new commit');
git('reset', '-q', '--hard', before);
const mb = (bytes) => (bytes / 1048576).toFixed(0);
const MIB300 = 300 * 1048576;
console.log(
  `git log --numstat:                           ${baseline.seconds.toFixed(2)} s, peak RSS ${mb(baseline.gitPeakBytes)} MB`,
);
console.log(
  `git log --first-parent -p -U0 -w -M:         ${patches.seconds.toFixed(2)} s, peak RSS ${mb(patches.gitPeakBytes)} MB`,
);
for (const [label, side] of [
  ['cadence analyze (the default, lines on)', analysis],
  ['cadence analyze --no-lines', verdicts],
]) {
  console.log(
    `${label}: ${side.seconds.toFixed(2)} s, Cadence process ${mb(side.nodePeakBytes)} MB, largest git child ${mb(side.gitPeakBytes)} MB, ${side.commits} commits, score ${side.score}${side.linesCounted === null ? `, lines skipped: ${side.linesSkipped}` : `, ${side.linesCounted} lines counted`}`,
  );
}
console.log(`cadence analyze after one new commit: ${next.seconds.toFixed(2)} s, ${next.linesCounted} lines counted`);
const ratio = (a, b) => a.seconds / b.seconds;
const verdict = (ok) => (ok ? 'OK' : 'MISSED');
console.log(
  `default: ${ratio(analysis, patches).toFixed(2)}x the -p read (target <= 2) ${verdict(ratio(analysis, patches) <= 2)}, ${ratio(analysis, baseline).toFixed(2)}x --numstat`,
);
console.log(
  `--no-lines: ${ratio(verdicts, baseline).toFixed(2)}x --numstat (target <= 1.5) ${verdict(ratio(verdicts, baseline) <= 1.5)}`,
);
console.log(
  `the line pass after one new commit: the whole analysis ${ratio(next, analysis).toFixed(2)}x the first (the history read and the strategies run again; the line pass alone is the difference to --no-lines: ${((next.seconds - verdicts.seconds) / (analysis.seconds - verdicts.seconds)).toFixed(2)}x, target <= 0.1) ${verdict((next.seconds - verdicts.seconds) / (analysis.seconds - verdicts.seconds) <= 0.1)}`,
);
const passRatio = passNext.passSeconds / passCold.passSeconds;
console.log(
  `the line pass alone, timed in its process: ${passCold.passSeconds.toFixed(2)} s cold, ${passNext.passSeconds.toFixed(2)} s after one new commit (${passNext.resumed ? 'carried forward' : 'NOT carried forward'}): ${passRatio.toFixed(3)}x (target <= 0.1) ${verdict(passRatio <= 0.1 && passNext.resumed)}`,
);
for (const [label, side] of [
  ['default', analysis],
  ['--no-lines', verdicts],
]) {
  console.log(
    `${label} peaks: Cadence process ${mb(side.nodePeakBytes)} MB ${verdict(side.nodePeakBytes < MIB300)}, largest git child ${mb(side.gitPeakBytes)} MB ${verdict(side.gitPeakBytes < MIB300)} (targets < 300 MB)`,
  );
}
