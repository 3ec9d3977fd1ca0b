// Analysis time and peak memory of `cadence analyze` on a 50,000-commit repository, as ratios
// against plain `git log --numstat` on the same repository in the same run.
// Each side runs in its own process; peak RSS counts that process and its git child.
import { tmpdir } from 'node:os';
import path from 'node:path';
import { generateRepository } from './generate-repo.mjs';
import { runHistoryWorker } from './history-run.mjs';

const COMMITS = Number(process.env.BENCH_COMMITS ?? 50_000);

const run = runHistoryWorker;

const repo = path.join(tmpdir(), `cadence-bench-${COMMITS}`);
const genStarted = Date.now();
await generateRepository(repo, COMMITS);
console.log(`repository: ${COMMITS} commits at ${repo} (ready in ${((Date.now() - genStarted) / 1000).toFixed(1)} s)`);

// Warm the page cache once so that neither side pays for the first read.
await run(['git-log', repo], 'warm-up');
const baseline = await run(['git-log', repo], 'git log');
const analysis = await run(['analyze', repo], 'analyze');
const mb = (bytes) => (bytes / 1048576).toFixed(0);
console.log(`git log --numstat: ${baseline.seconds.toFixed(2)} s, peak RSS ${mb(baseline.peakBytes)} MB`);
console.log(
  `cadence analyze:   ${analysis.seconds.toFixed(2)} s, peak RSS ${mb(analysis.peakBytes)} MB (node ${mb(analysis.nodePeakBytes)} MB + git ${mb(analysis.gitPeakBytes)} MB), ${analysis.commits} commits, score ${analysis.score}`,
);
const ratio = analysis.seconds / baseline.seconds;
console.log(`time ratio: ${ratio.toFixed(2)} (target <= 1.5) ${ratio <= 1.5 ? 'OK' : 'MISSED'}`);
// The target is Cadence's own process; git's memory is git's, the same in both runs.
console.log(
  `peak RSS of the analyzing process: ${mb(analysis.nodePeakBytes)} MB (target < 300 MB) ${analysis.nodePeakBytes < 300 * 1048576 ? 'OK' : 'MISSED'}`,
);
console.log(`peak RSS with git, ratio to git log alone: ${(analysis.peakBytes / baseline.peakBytes).toFixed(2)}`);
