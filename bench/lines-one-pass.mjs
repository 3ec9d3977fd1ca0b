// `pnpm bench lines` (with lines.mjs): the one pass a whole history's lines come from (docs/lines.md)
// on built histories, against `git blame -w -M` in the same run:
//   1. agreement: for every line of every counted text file at HEAD, whether the one pass names
//      the commit blame names; the disagreements by kind (a line of unknown writer, a merge named,
//      another commit);
//   2. time: the one pass against blaming every counted file two at a time;
//   3. the merge-flow rework: an assistant's 40 lines in one request, 30 of them trimmed two days
//      later in the next, both merged with --no-ff: 30 reworked lines.
// Usage: node bench/lines-one-pass.mjs   (BENCH_COMMITS, default 10,000)
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chargeRework, excludeMatcher, readHistory, readWholeHistoryPass } from '@cadence-detect/git-source';
import { blameLines, inTwos } from './blame-porcelain.mjs';
import { generateEditHistory } from './generate-edits.mjs';

const COMMITS = Number(process.env.BENCH_COMMITS ?? 10_000);
const writerIndex = (value) => Math.floor(value / 256);

const seconds = async (work) => {
  const started = process.hrtime.bigint();
  const value = await work();
  return { seconds: Number(process.hrtime.bigint() - started) / 1e9, value };
};

/** Every counted file's blame, two at a time: per file, each line's commit. */
async function blameAll(dir, files) {
  const found = new Map();
  await inTwos(files, async (file) =>
    found.set(
      file,
      (await blameLines(dir, file)).map(({ commit }) => commit),
    ),
  );
  return found;
}

// 1 and 2: a generated history of partial edits, renames and --no-ff pull-request merges.
const repo = path.join(tmpdir(), `cadence-bench-edits-${COMMITS}`);
await generateEditHistory(repo, COMMITS);
const head = spawnSync('git', ['rev-parse', 'HEAD'], { cwd: repo, encoding: 'utf8' }).stdout.trim();
const merges = spawnSync('git', ['rev-list', '--merges', '--count', 'HEAD'], {
  cwd: repo,
  encoding: 'utf8',
}).stdout.trim();
console.log(`repository: ${COMMITS} commits (${merges} merges) at ${repo}`);
const isExcludedByConfig = excludeMatcher([]);
const pass = await seconds(() => readWholeHistoryPass(repo, head, { isExcludedByConfig }));
const counted = [...pass.value.tree.files]
  .filter(([file, lines]) => lines !== null && lines > 0 && !pass.value.tree.isExcluded(file))
  .map(([file]) => file);
const blamed = await seconds(() => blameAll(repo, counted));
let same = 0;
let total = 0;
const kinds = { unknown: 0, merge: 0, other: 0 };
const parents = new Map(
  spawnSync('git', ['rev-list', '--parents', 'HEAD'], { cwd: repo, encoding: 'utf8', maxBuffer: 1 << 28 })
    .stdout.trim()
    .split('\n')
    .map((line) => {
      const [hash, ...of] = line.split(' ');
      return [hash, of];
    }),
);
for (const [file, writers] of blamed.value) {
  const values = pass.value.ledger.files.get(file) ?? [];
  writers.forEach((writer, i) => {
    total++;
    const value = values[i];
    const named = value === undefined || value < 0 ? null : pass.value.ledger.commits[writerIndex(value)];
    if (named === writer) same++;
    else if (named === null) kinds.unknown++;
    else if ((parents.get(named)?.length ?? 0) > 1) kinds.merge++;
    else kinds.other++;
  });
}
console.log(
  `agreement with git blame -w -M: ${same} of ${total} counted lines at HEAD (${((same / total) * 100).toFixed(2)}%; target >= 99.5%) ${same / total >= 0.995 ? 'OK' : 'MISSED'}; apart: ${kinds.unknown} of unknown writer, ${kinds.merge} named a merge, ${kinds.other} another commit; ${pass.value.ledger.movedLines} moved lines kept with their writers by design`,
);
console.log(
  `one pass: ${pass.seconds.toFixed(2)} s against blaming the ${counted.length} counted files two at a time: ${blamed.seconds.toFixed(2)} s (${(pass.seconds / blamed.seconds).toFixed(2)}x)`,
);

// 3: the merge-flow rework.
const work = mkdtempSync(path.join(tmpdir(), 'cadence-bench-merge-rework-'));
try {
  const git = (args, date) =>
    spawnSync('git', args, {
      cwd: work,
      encoding: 'utf8',
      env: {
        ...process.env,
        GIT_AUTHOR_NAME: 'Ada',
        GIT_AUTHOR_EMAIL: 'ada@example.test',
        GIT_COMMITTER_NAME: 'Ada',
        GIT_COMMITTER_EMAIL: 'ada@example.test',
        ...(date ? { GIT_AUTHOR_DATE: `@${date} +0000`, GIT_COMMITTER_DATE: `@${date} +0000` } : {}),
      },
    }).stdout.trim();
  const day = 86_400;
  const t0 = Date.UTC(2025, 5, 2, 9) / 1000;
  const code = (n) =>
    `${Array.from({ length: n }, (_, i) => `export const value${i} = compute(${i}, "parser");`).join('\n')}\n`;
  git(['init', '-q', '--initial-branch=main']);
  writeFileSync(path.join(work, 'README.md'), 'project\n');
  git(['add', '.']);
  git(['commit', '-q', '-m', 'start'], t0 - day);
  git(['checkout', '-q', '-b', 'one']);
  mkdirSync(path.join(work, 'src'));
  writeFileSync(path.join(work, 'src', 'parser.ts'), code(40));
  git(['add', '.']);
  git(['commit', '-q', '-m', 'Add the parser'], t0);
  const writer = git(['rev-parse', 'HEAD']);
  git(['checkout', '-q', 'main']);
  git(['merge', '-q', '--no-ff', '-m', 'Merge pull request #1', 'one'], t0 + 3600);
  git(['checkout', '-q', '-b', 'two']);
  writeFileSync(path.join(work, 'src', 'parser.ts'), code(10));
  git(['commit', '-q', '-am', 'Trim the parser'], t0 + 2 * day);
  git(['checkout', '-q', 'main']);
  git(['merge', '-q', '--no-ff', '-m', 'Merge pull request #2', 'two'], t0 + 2 * day + 3600);
  const rev = git(['rev-parse', 'HEAD']);
  const history = await readHistory(work, { rev, excludeFiles: [] });
  const flow = await readWholeHistoryPass(work, rev, { isExcludedByConfig });
  const reworked = chargeRework(flow, history.commits).lines.get(writer) ?? 0;
  console.log(
    `merge-flow rework: 40 lines added in request #1, 30 trimmed by request #2 two days later, both --no-ff: ${reworked} reworked (expected 30) ${reworked === 30 ? 'OK' : 'MISSED'}`,
  );
} finally {
  rmSync(work, { recursive: true, force: true });
}
