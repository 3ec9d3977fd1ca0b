// `pnpm bench against <commit> [history] [webhook] [report]`: runs benchmarks on this checkout and on
// <commit>, built side by side in a worktree of their own, in turns (baseline, current, baseline,
// current), and prints each figure's ratio current / baseline, best round against best round. A
// change that claims not to cost anything is held to it here: the target is at most 1.05x (for
// rates, at least 1 / 1.05).
// The worktree is kept under the system's temporary folder and reused while its commit is the same.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { baselineTree, root } from './baseline-tree.mjs';

const TARGET = 1.05;

/**
 * What each benchmark's output is read for. `lower`: a time or a size, better smaller; `higher`: a
 * rate. Figures that are already ratios to a baseline of the same run (git log, a bare Koa app, an
 * empty page) are compared as such, so that the machine's mood between the two runs cancels out.
 */
const FIGURES = {
  history: {
    script: 'history.mjs',
    rounds: 3,
    figures: [
      { name: 'analyze time (s)', pattern: /cadence analyze \(the default, lines on\):\s+([\d.]+) s/, better: 'lower' },
      { name: 'analyze time / the -p read time', pattern: /default: ([\d.]+)x the -p read/, better: 'lower' },
      { name: '--no-lines time / --numstat time', pattern: /--no-lines: ([\d.]+)x --numstat/, better: 'lower' },
      {
        name: 'peak RSS of the analyzing process (MB)',
        pattern: /cadence analyze \(the default, lines on\):[^\n]*Cadence process (\d+) MB/,
        better: 'lower',
      },
    ],
  },
  webhook: {
    script: 'webhook-load.mjs',
    rounds: 2,
    figures: [
      { name: 'server rate (req/s)', pattern: /cadence server:\s+(\d+) req\/s/, better: 'higher' },
      { name: 'server rate / bare Koa rate', pattern: /throughput ratio: ([\d.]+)x bare/, better: 'higher' },
      {
        name: 'server rate / minimal receiver rate',
        pattern: /x bare, ([\d.]+)x minimal receiver/,
        better: 'higher',
      },
      {
        name: 'open-loop p99 / the receiver\u2019s p99',
        pattern: /p99 [\d.]+ ms \(([\d.]+)x the receiver's p99/,
        better: 'lower',
      },
    ],
  },
  report: {
    script: 'report.mjs',
    rounds: 3,
    figures: [
      { name: 'report page size (MB)', pattern: /flagged \(1,000 in the page\): ([\d.]+) MB/, better: 'lower' },
      { name: 'render time / empty page', pattern: /= ([\d.]+)x the empty page/, better: 'lower' },
    ],
  },
};

const [ref, ...asked] = process.argv.slice(2);
if (!ref) {
  console.log('skipped: give a commit to compare with (pnpm bench against <commit> [history webhook report])');
  process.exit(0);
}
const names = asked.length > 0 ? asked : Object.keys(FIGURES);
for (const name of names) if (!FIGURES[name]) throw new Error(`no comparison for "${name}"`);

const { commit, tree: baseline } = baselineTree(ref);

function runBench(tree, script) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(tree, 'bench', script)], {
      cwd: tree,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
      process.stdout.write(chunk);
    });
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(out) : reject(new Error(`${script} in ${tree} exited ${code}`))));
  });
}

// The best of each side's rounds: what the code can do, with the machine's interruptions left out.
const best = (values, better) => (better === 'lower' ? Math.min(...values) : Math.max(...values));

const lines = [];
let missed = false;
for (const name of names) {
  const { script, rounds, figures } = FIGURES[name];
  const seen = { baseline: figures.map(() => []), current: figures.map(() => []) };
  for (let round = 1; round <= rounds; round++) {
    for (const [side, tree] of [
      ['baseline', baseline],
      ['current', root],
    ]) {
      console.log(
        `\n== ${name}, ${side} (${side === 'baseline' ? commit.slice(0, 7) : 'this checkout'}), round ${round}`,
      );
      const out = await runBench(tree, script);
      figures.forEach((figure, i) => {
        const match = figure.pattern.exec(out);
        if (!match) throw new Error(`${name} (${side}): no "${figure.name}" in its output`);
        seen[side][i].push(Number(match[1]));
      });
    }
  }
  figures.forEach((figure, i) => {
    const before = best(seen.baseline[i], figure.better);
    const after = best(seen.current[i], figure.better);
    const ratio = after / before;
    const ok = figure.better === 'lower' ? ratio <= TARGET : ratio >= 1 / TARGET;
    if (!ok) missed = true;
    lines.push(
      `${name}: ${figure.name}: ${before} -> ${after} = ${ratio.toFixed(3)}x (target ${figure.better === 'lower' ? `<= ${TARGET}` : `>= ${(1 / TARGET).toFixed(3)}`}) ${ok ? 'OK' : 'MISSED'}`,
    );
  });
}
console.log(`\nagainst ${commit.slice(0, 7)}, the best of each side's rounds:`);
for (const line of lines) console.log(line);
process.exit(missed ? 1 : 0);
