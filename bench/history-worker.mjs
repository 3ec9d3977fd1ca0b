// One measured side of bench/history.mjs, in a process of its own. Prints JSON on stdout.
import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import { readFileSync } from 'node:fs';

const [mode, repo] = process.argv.slice(2);

function childPeak(pid) {
  let peak = 0;
  const sample = () => {
    try {
      const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
      if (match) peak = Math.max(peak, Number(match[1]) * 1024);
    } catch {
      // exited
    }
  };
  const timer = setInterval(sample, 10);
  // Also sampled as output arrives: VmHWM only grows, and a git that exits within 10 ms would
  // otherwise be missed (it has printed what it diffed by then).
  return { sample, stop: () => (clearInterval(timer), sample(), peak) };
}

const LOG_ARGS = ['log', '--numstat', '--format=%H %P %an %ae %at %s', 'HEAD'];
/** The line replay's kind of read: every first-parent commit's `-U0` diff, whitespace ignored, renames followed. */
const PATCH_ARGS = ['log', '--first-parent', '-p', '-U0', '-w', '-M', '--format=%H %P', 'HEAD'];

if (mode === 'git-log' || mode === 'git-log-bounded' || mode === 'git-log-p') {
  // git-log-bounded: the same command within the bounds Cadence's history reader puts on git
  // (core.bigFileThreshold, the pack windows, prlimit's address-space limit).
  const { boundedGitCommand, DEFAULT_GIT_BOUNDS } =
    mode === 'git-log-bounded' ? await import('@cadence-detect/git-source') : {};
  const args = mode === 'git-log-p' ? PATCH_ARGS : LOG_ARGS;
  const git = boundedGitCommand ? boundedGitCommand(args, DEFAULT_GIT_BOUNDS) : { command: 'git', args };
  const child = spawn(git.command, git.args, { cwd: repo, stdio: ['ignore', 'pipe', 'inherit'] });
  const { sample, stop } = childPeak(child.pid);
  let bytes = 0;
  child.stdout.on('data', (c) => {
    bytes += c.length;
    sample();
  });
  const code = await new Promise((resolve) => child.on('close', resolve));
  const gitPeak = stop();
  if (code !== 0) process.exitCode = 1;
  const nodePeak = process.resourceUsage().maxRSS * 1024;
  process.stdout.write(
    JSON.stringify({ bytes, peakBytes: gitPeak + nodePeak, gitPeakBytes: gitPeak, nodePeakBytes: nodePeak }),
  );
} else if (mode === 'line-pass') {
  // The line pass alone, as the engine runs it for a local repository (kept under
  // $XDG_CACHE_HOME/cadence): list, replay or carry forward, count the lines at HEAD, keep.
  const git = await import('@cadence-detect/git-source');
  const started = process.hrtime.bigint();
  const head = spawnSync('git', ['rev-parse', 'HEAD'], { cwd: repo, encoding: 'utf8' }).stdout.trim();
  const file = git.keptLinesFile(git.defaultCacheRoot(), path.join(repo, '.git'));
  const KEY = 'bench line pass';
  const pass = await git.readWholeHistoryPass(repo, head, {
    isExcludedByConfig: () => false,
    loadKept: () => git.loadKeptLines(file, KEY),
  });
  const lines = await git.readHeadLines(repo, head, {
    isExcluded: pass.tree.isExcluded,
    tree: pass.tree,
    records: pass.records,
    ledger: pass.ledger,
    maxFiles: 1_000_000,
  });
  await git.saveKeptLines(file, KEY, {
    ledger: pass.ledger,
    rework: git.chargeRework(pass, []),
    context: pass.context,
  });
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  process.stdout.write(
    JSON.stringify({ passSeconds: seconds, resumed: pass.resumedFrom !== null, linesCounted: lines.counted }),
  );
} else {
  // As the CLI's process does (host/bin/cadence.js).
  const { tightenHeapGrowth } = await import('../host/dist/heap-growth.js');
  tightenHeapGrowth();
  const { builtinRepositoryEngine } = await import('./builtin-engine.mjs');
  const engine = await builtinRepositoryEngine(repo);
  // git log runs as our child: sample its peak the same way as the baseline's.
  let gitPeak = 0;
  const watcher = setInterval(() => {
    try {
      for (const pid of readFileSync(`/proc/${process.pid}/task/${process.pid}/children`, 'utf8')
        .trim()
        .split(/\s+/)
        .filter(Boolean)) {
        const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
        if (match) gitPeak = Math.max(gitPeak, Number(match[1]) * 1024);
      }
    } catch {
      // a child exited between the two reads
    }
  }, 10);
  // `analyze`: what users run (lines on, the default); `analyze-no-lines`: the commit verdicts alone.
  const result = await engine.analyze(
    { kind: 'repository', url: repo, ...(mode === 'analyze-no-lines' ? { lines: false } : {}) },
    { network: null, allowLocalPaths: true },
  );
  clearInterval(watcher);
  const nodePeak = process.resourceUsage().maxRSS * 1024;
  process.stdout.write(
    JSON.stringify({
      commits: result.total_commits,
      score: result.overall_score,
      linesCounted: result.lines?.counted ?? null,
      linesSkipped: result.lines_skipped ?? null,
      peakBytes: nodePeak + gitPeak,
      nodePeakBytes: nodePeak,
      gitPeakBytes: gitPeak,
    }),
  );
}
