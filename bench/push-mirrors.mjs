// `pnpm bench push`: push-to-result time with warm repository mirrors against cold clones.
// 10 repositories of 5,000 commits served by `git daemon` on 127.0.0.1; 100 pushes of 1 to 5 commits
// (10 per repository), each analyzed by the engine as a push job (range before..after). Baseline,
// measured in the same run for each push: `git fetch` of the same commits into a mirror of our own
// plus `git log --numstat before..after` there, the least a push analysis must do.
// Cold clones (mirrors off) are measured on the first 20 pushes: each is a full clone.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { builtinRepositoryEngine } from './builtin-engine.mjs';
import { generateRepository } from './generate-repo.mjs';

const REPOSITORIES = 10;
const BASE_COMMITS = 5000;
const PUSHES_PER_REPOSITORY = 10;
const COLD_PUSHES = 20;
const root = path.join(tmpdir(), 'cadence-bench-push');
mkdirSync(root, { recursive: true });

/** Deterministic push sizes: 1 to 5 commits. */
const sizes = Array.from({ length: REPOSITORIES * PUSHES_PER_REPOSITORY }, (_, i) => 1 + ((i * 7 + 3) % 5));
// Room for every push: at most 5 commits each.
const extra = 5 * PUSHES_PER_REPOSITORY;

const git = (cwd, args) => {
  const out = spawnSync('git', args, { cwd, encoding: 'utf8', maxBuffer: 1 << 28 });
  if (out.status !== 0) throw new Error(`git ${args.join(' ')}: ${out.stderr}`);
  return out.stdout.trim();
};

// Each repository's full history exists once; the served copy's main moves forward push by push.
const served = path.join(root, 'served');
mkdirSync(served, { recursive: true });
const histories = [];
for (let r = 0; r < REPOSITORIES; r++) {
  const source = await generateRepository(path.join(root, `source-${r}`), BASE_COMMITS + extra);
  const bare = path.join(served, `acme/repo-${r}.git`);
  if (!existsSync(bare)) {
    git(root, ['clone', '--quiet', '--bare', source, bare]);
  }
  histories.push(git(source, ['rev-list', '--reverse', 'main']).split('\n'));
}
const port = 19000 + Math.floor(Math.random() * 1000);
const daemon = spawn(
  'git',
  ['daemon', '--reuseaddr', `--base-path=${served}`, '--listen=127.0.0.1', `--port=${port}`, '--export-all', served],
  { stdio: 'ignore' },
);
await new Promise((resolve) => setTimeout(resolve, 500));

const engineWith = (mirrorsDir) =>
  builtinRepositoryEngine(
    root,
    mirrorsDir ? { CADENCE_CACHE_REPOSITORIES_DIR: mirrorsDir } : { CADENCE_CACHE_REPOSITORIES_MAX_SIZE: '0' },
  );
const mirrorsDir = path.join(root, 'mirrors');
rmSync(mirrorsDir, { recursive: true, force: true });
const warm = await engineWith(mirrorsDir);
const cold = await engineWith(null);
const baselineDir = path.join(root, 'baseline');
rmSync(baselineDir, { recursive: true, force: true });

const position = Array(REPOSITORIES).fill(BASE_COMMITS - 1);
const url = (r) => `git://127.0.0.1:${port}/acme/repo-${r}.git`;
// A push names its branch (refs/heads/main), as the webhook intake passes it on.
const analyze = (engine, r, before, after) =>
  engine.analyze(
    { kind: 'repository', url: url(r), branch: 'main', range: { before, after } },
    { network: null, allowLocalPaths: false },
  );

// Warm the mirrors and the baseline's copies at the starting point (what a first push would clone).
for (let r = 0; r < REPOSITORIES; r++) {
  git(path.join(served, `acme/repo-${r}.git`), ['update-ref', 'refs/heads/main', histories[r][position[r]]]);
  await analyze(warm, r, histories[r][position[r] - 1], histories[r][position[r]]);
  const copy = path.join(baselineDir, `repo-${r}.git`);
  git(root, ['init', '--quiet', '--bare', copy]);
  git(copy, ['fetch', '--quiet', '--no-tags', url(r), '+refs/heads/main:refs/heads/main']);
}

const timed = async (work) => {
  const started = performance.now();
  await work();
  return performance.now() - started;
};
const rows = [];
for (let push = 0; push < sizes.length; push++) {
  const r = push % REPOSITORIES;
  const before = histories[r][position[r]];
  position[r] += sizes[push];
  const after = histories[r][position[r]];
  git(path.join(served, `acme/repo-${r}.git`), ['update-ref', 'refs/heads/main', after]);
  const copy = path.join(baselineDir, `repo-${r}.git`);
  const baseline = await timed(async () => {
    git(copy, ['fetch', '--quiet', '--no-tags', url(r), '+refs/heads/main:refs/heads/main']);
    git(copy, ['log', '--numstat', '--format=%H %P %an %ae %at %s', `${before}..${after}`]);
  });
  const warmMs = await timed(() => analyze(warm, r, before, after));
  const coldMs = push < COLD_PUSHES ? await timed(() => analyze(cold, r, before, after)) : null;
  rows.push({ baseline, warm: warmMs, cold: coldMs });
}
daemon.kill();

const median = (values) => {
  const sorted = values.filter((v) => v !== null).sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
};
const ratio = (key) => median(rows.map((row) => (row[key] === null ? null : row[key] / row.baseline)));
console.log(`${sizes.length} pushes of 1-5 commits to ${REPOSITORIES} repositories of ${BASE_COMMITS} commits`);
console.log(
  `  baseline (git fetch + git log --numstat before..after): median ${median(rows.map((r) => r.baseline)).toFixed(0)} ms`,
);
console.log(
  `  warm mirror: median ${median(rows.map((r) => r.warm)).toFixed(0)} ms, ${ratio('warm').toFixed(2)}x the baseline (target 2x)`,
);
console.log(
  `  cold clone (first ${COLD_PUSHES} pushes): median ${median(rows.map((r) => r.cold)).toFixed(0)} ms, ${ratio('cold').toFixed(2)}x the baseline`,
);
