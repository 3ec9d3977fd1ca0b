// Analysis time and peak memory of `cadence analyze` on a 50,000-commit repository, the default
// (lines on) and --no-lines, as ratios against plain `git log --numstat` and the line replay's
// `git log --first-parent -p -U0 -w -M` on the same repository in the same run.
// Each side runs in its own process; peak RSS counts that process and its git child.
import { tmpdir } from 'node:os';
import path from 'node:path';
import { generateEditHistory } from './generate-edits.mjs';
import { runHistoryWorker } from './history-run.mjs';

const COMMITS = Number(process.env.BENCH_COMMITS ?? 50_000);

const run = runHistoryWorker;

// Partial edits, insertions, deletions, renames and pull requests merged with --no-ff (generate-edits.mjs).
const repo = path.join(tmpdir(), `cadence-bench-edits-${COMMITS}`);
const genStarted = Date.now();
await generateEditHistory(repo, COMMITS);
console.log(`repository: ${COMMITS} commits at ${repo} (ready in ${((Date.now() - genStarted) / 1000).toFixed(1)} s)`);

// Warm the page cache once so that no side pays for the first read.
await run(['git-log', repo], 'warm-up');
const baseline = await run(['git-log', repo], 'git log');
const patches = await run(['git-log-p', repo], 'git log -p');
const analysis = await run(['analyze', repo], 'analyze');
const verdicts = await run(['analyze-no-lines', repo], 'analyze --no-lines');
const mb = (bytes) => (bytes / 1048576).toFixed(0);
const MIB300 = 300 * 1048576;
console.log(`git log --numstat:                           ${baseline.seconds.toFixed(2)} s, peak RSS ${mb(baseline.gitPeakBytes)} MB`);
console.log(`git log --first-parent -p -U0 -w -M:         ${patches.seconds.toFixed(2)} s, peak RSS ${mb(patches.gitPeakBytes)} MB`);
for (const [label, side] of [
  ['cadence analyze (the default, lines on)', analysis],
  ['cadence analyze --no-lines', verdicts],
]) {
  console.log(
    `${label}: ${side.seconds.toFixed(2)} s, Cadence process ${mb(side.nodePeakBytes)} MB, largest git child ${mb(side.gitPeakBytes)} MB, ${side.commits} commits, score ${side.score}${side.linesCounted === null ? `, lines skipped: ${side.linesSkipped}` : `, ${side.linesCounted} lines counted`}`,
  );
}
const ratio = (a, b) => a.seconds / b.seconds;
const verdict = (ok) => (ok ? 'OK' : 'MISSED');
console.log(
  `default: ${ratio(analysis, patches).toFixed(2)}x the -p read (target <= 2) ${verdict(ratio(analysis, patches) <= 2)}, ${ratio(analysis, baseline).toFixed(2)}x --numstat`,
);
console.log(
  `--no-lines: ${ratio(verdicts, baseline).toFixed(2)}x --numstat (target <= 1.5) ${verdict(ratio(verdicts, baseline) <= 1.5)}`,
);
for (const [label, side] of [
  ['default', analysis],
  ['--no-lines', verdicts],
]) {
  console.log(
    `${label} peaks: Cadence process ${mb(side.nodePeakBytes)} MB ${verdict(side.nodePeakBytes < MIB300)}, largest git child ${mb(side.gitPeakBytes)} MB ${verdict(side.gitPeakBytes < MIB300)} (targets < 300 MB)`,
  );
}
