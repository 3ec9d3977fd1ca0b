// `pnpm bench lines`: the blame-based line pass (docs/lines.md: what a range and --since use; a whole
// history uses the one pass, measured by lines-one-pass.mjs) on a 50,000-commit history whose commits edit
// parts of files, insert and delete lines and now and then rename a file (so blame has work to do).
// In the same run, against baselines measured on the same repository:
//   1. the history read plus the line pass, against the history read plus `git blame --incremental
//      -w -M` of every counted text file at HEAD, two at a time (target <= 1.5x);
//   2. the rework pass alone, against the `git log --first-parent -p -U0 -w -M` it replays, read to
//      its end (target <= 1.5x);
//   3. a second line pass over the unchanged repository with the mirror's blame cache, against the
//      first pass that filled it (target <= 0.1x);
//   4. peak memory: the git children of the line pass (VmHWM, sampled from /proc), which run
//      within the history read's bounds (1 GiB of address space; the history read itself peaks at
//      about 207 MiB on this size of history), and this process's own peak against its peak after
//      the history read.
// Usage: node bench/lines.mjs   (BENCH_COMMITS=5000 for a quick look)
import { spawn, spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  BLAME_CACHE_FILE,
  excludeMatcher,
  openBlameCache,
  readHeadLines,
  readHistory,
  readLineRecords,
  readLineTree,
  readReworkedLines,
  isTraceFile,
} from '@cadence-detect/git-source';
import { random, startFastImport } from './generate-repo.mjs';

const COMMITS = Number(process.env.BENCH_COMMITS ?? 50_000);
const MIB = 1048576;
const AUTHORS = [
  'Ada <ada@example.test>',
  'Grace <grace@example.test>',
  'Linus <linus@example.test>',
  'Barbara <barbara@example.test>',
  'Ken <ken@example.test>',
];

/** A history of partial edits: each commit changes a few lines of one or two files, inserts and deletes some; 0.3% rename a file. */
async function generateEditingHistory(dir, commits) {
  const started = startFastImport(dir);
  if (!started) return;
  const { importer, done } = started;
  const next = random(7);
  const pick = (n) => Math.floor(next() * n);
  const files = new Map();
  let fileCounter = 0;
  const newFile = (i) => {
    const name = `src/m${fileCounter % 20}/f${fileCounter++}.txt`;
    files.set(
      name,
      Array.from({ length: 30 + pick(40) }, (_, l) => `c${i}.${l}`),
    );
    return name;
  };
  let time = Date.UTC(2016, 0, 1) / 1000;
  const write = (text) =>
    importer.stdin.write(text) ? Promise.resolve() : new Promise((r) => importer.stdin.once('drain', r));
  for (let i = 1; i <= commits; i++) {
    time += Math.floor(next() < 0.2 ? 30 + next() * 300 : 600 + next() * 8_000);
    const author = AUTHORS[pick(AUTHORS.length)];
    const message = `Change ${i}`;
    let chunk = `commit refs/heads/main\nmark :${i}\nauthor ${author} ${time} +0000\ncommitter ${author} ${time} +0000\ndata ${message.length}\n${message}\n`;
    if (i > 1) chunk += `from :${i - 1}\n`;
    const touched = new Set();
    if (i === 1) for (let f = 0; f < 150; f++) touched.add(newFile(i));
    else if (next() < 0.02 && files.size < 400) touched.add(newFile(i));
    if (i > 1 && next() < 0.003) {
      const names = [...files.keys()];
      const from = names[pick(names.length)];
      const to = `src/moved/r${i}.txt`;
      files.set(to, files.get(from));
      files.delete(from);
      chunk += `R ${from} ${to}\n`;
    }
    const names = [...files.keys()];
    for (let f = 1 + pick(2); f > 0; f--) {
      const name = names[pick(names.length)];
      const body = files.get(name);
      for (let k = 1 + pick(4); k > 0; k--) body[pick(body.length)] = `c${i}.e${k}`;
      const at = pick(body.length + 1);
      body.splice(
        at,
        body.length > 250 ? 2 + pick(6) : pick(3),
        ...Array.from({ length: pick(7) }, (_, n) => `c${i}.i${n}`),
      );
      touched.add(name);
    }
    for (const name of touched) {
      const text = `${files.get(name).join('\n')}\n`;
      chunk += `M 100644 inline ${name}\ndata ${Buffer.byteLength(text)}\n${text}\n`;
    }
    await write(chunk);
  }
  importer.stdin.end();
  await done;
  spawnSync('git', ['checkout', '--quiet', '-f', 'main'], { cwd: dir });
  // Packed, as a mirror after its first fetch is.
  spawnSync('git', ['repack', '-adq'], { cwd: dir, stdio: 'inherit' });
}

/** The highest VmHWM of this process's children while `work` runs (sampled every 20 ms). */
async function childPeak(work) {
  let peak = 0;
  const sample = () => {
    for (const name of readdirSync('/proc')) {
      if (!/^\d+$/.test(name)) continue;
      try {
        const status = readFileSync(`/proc/${name}/status`, 'utf8');
        if (Number(/^PPid:\s+(\d+)/m.exec(status)?.[1]) !== process.pid) continue;
        peak = Math.max(peak, Number(/^VmHWM:\s+(\d+) kB/m.exec(status)?.[1] ?? 0) * 1024);
      } catch {
        // The process ended between the listing and the read.
      }
    }
  };
  const timer = setInterval(sample, 20);
  try {
    const value = await work();
    return { value, peak };
  } finally {
    clearInterval(timer);
  }
}

const seconds = async (work) => {
  const started = process.hrtime.bigint();
  const value = await work();
  return { seconds: Number(process.hrtime.bigint() - started) / 1e9, value };
};

/** Runs git and reads its output to the end (counting bytes), as a consumer of it would. */
function drain(cwd, args) {
  return new Promise((resolve, reject) => {
    const child = spawn('git', args, { cwd, stdio: ['ignore', 'pipe', 'ignore'] });
    let bytes = 0;
    child.stdout.on('data', (chunk) => (bytes += chunk.length));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(bytes) : reject(new Error(`git ${args[0]} exited ${code}`))));
  });
}

async function blameAllTwoAtATime(dir, head, paths) {
  const queue = [...paths];
  const worker = async () => {
    for (let p = queue.shift(); p; p = queue.shift())
      await drain(dir, ['blame', '--incremental', '--root', '-w', '-M', head, '--', p]);
  };
  await Promise.all([worker(), worker()]);
}

const repo = path.join(tmpdir(), `cadence-bench-lines-history-${COMMITS}`);
const generated = await seconds(() => generateEditingHistory(repo, COMMITS));
const head = spawnSync('git', ['rev-parse', 'HEAD'], { cwd: repo, encoding: 'utf8' }).stdout.trim();
console.log(
  `repository: ${COMMITS} commits of partial edits at ${repo} (${generated.seconds.toFixed(1)} s to make or find)`,
);
rmSync(path.join(repo, BLAME_CACHE_FILE), { force: true });

// Warm the page cache the same way for every measure below.
await drain(repo, ['log', '--numstat', '--format=%H', head]);

const history = await seconds(() => readHistory(repo, { rev: head, excludeFiles: [] }));
const commits = history.value.commits;
const isExcluded = excludeMatcher([]);
const tree = await readLineTree(repo, head, isExcluded);
const counted = [...tree.files]
  .filter(([p, lines]) => lines !== null && lines > 0 && !tree.isExcluded(p))
  .map(([p]) => p);
const rssAfterHistory = process.resourceUsage().maxRSS * 1024;
console.log(
  `history read: ${commits.length} commits in ${history.seconds.toFixed(2)} s; ${counted.length} counted text files at HEAD; this process peaks at ${(rssAfterHistory / MIB).toFixed(0)} MiB`,
);

const blameAll = await seconds(() => blameAllTwoAtATime(repo, head, counted));
console.log(
  `baseline: git blame --incremental -w -M of every counted file, two at a time: ${blameAll.seconds.toFixed(2)} s`,
);

/** The line pass as the engine runs it (repository-source.ts): tree, records, blame and rework side by side. */
async function linePass(cache) {
  const lineTree = await readLineTree(repo, head, isExcluded);
  const records = await readLineRecords(repo, head, {
    commits: new Set(commits.map((c) => c.hash)),
    traceFiles: [...lineTree.files.keys()].filter(isTraceFile),
  });
  const reworkKey = `${head} bench`;
  const [lines, reworked] = await Promise.all([
    readHeadLines(repo, head, {
      isExcluded: lineTree.isExcluded,
      tree: lineTree,
      records,
      maxFiles: 20_000,
      ...(cache ? { cache } : {}),
    }),
    (async () => {
      const kept = cache?.lookupRework(reworkKey);
      if (kept) return kept;
      const found = await readReworkedLines(repo, commits, {
        isExcluded: lineTree.isExcluded,
        records,
        replayFrom: head,
      });
      cache?.storeRework(reworkKey, found);
      return found;
    })(),
  ]);
  await cache?.save();
  return { lines, reworked };
}

const first = await seconds(async () => linePass(await openBlameCache(repo, head)));
const second = await seconds(async () => {
  const cache = await openBlameCache(repo, head);
  const result = await linePass(cache);
  return { ...result, stats: cache.stats };
});
const measured = await childPeak(() => seconds(() => linePass(undefined)));
const uncached = measured.value;
const rework = await seconds(() => readReworkedLines(repo, commits, { isExcluded: tree.isExcluded, replayFrom: head }));
const logP = await seconds(() =>
  drain(repo, [
    'log',
    '--first-parent',
    '--diff-merges=first-parent',
    '--reverse',
    '-p',
    '-U0',
    '-w',
    '-M',
    '--no-color',
    '--format=%x00%H %P',
    head,
  ]),
);

const ratio = (a, b) => (a / b).toFixed(2);
const verdict = (value, target) => (value <= target ? 'OK' : 'MISSED');
const withHistory = (history.seconds + uncached.seconds) / (history.seconds + blameAll.seconds);
console.log(
  `line pass (no cache): ${uncached.seconds.toFixed(2)} s (${ratio(uncached.seconds, blameAll.seconds)}x the blames alone); counted ${uncached.value.lines.counted} lines`,
);
console.log(
  `history read + line pass vs history read + blames: ${withHistory.toFixed(2)}x (target <= 1.5x) ${verdict(withHistory, 1.5)}`,
);
console.log(
  `rework pass: ${rework.seconds.toFixed(2)} s vs git log -p -U0 read to its end ${logP.seconds.toFixed(2)} s: ${ratio(rework.seconds, logP.seconds)}x (target <= 1.5x) ${verdict(rework.seconds / logP.seconds, 1.5)}`,
);
console.log(
  `first line pass filling the mirror's cache: ${first.seconds.toFixed(2)} s (${ratio(first.seconds, uncached.seconds)}x the pass without a cache)`,
);
console.log(
  `second pass, unchanged: ${second.seconds.toFixed(3)} s, ${second.value.stats.hits} files kept, ${second.value.stats.misses} blamed: ${ratio(second.seconds, first.seconds)}x the first (target <= 0.1x) ${verdict(second.seconds / first.seconds, 0.1)}`,
);
const byCommit = (pass) =>
  JSON.stringify([...pass.lines.byCommit].map(([c, v]) => [c, v.lines]).sort(([a], [b]) => a.localeCompare(b)));
const same = byCommit(second.value) === byCommit(uncached.value);
console.log(`the kept blames give the same lines by commit: ${same ? 'yes' : 'NO'}`);
const peak = process.resourceUsage().maxRSS * 1024;
console.log(
  `peak git child of the line pass: ${(measured.peak / MIB).toFixed(0)} MiB VmHWM (the history read's git, bounded: about 207 MiB; bound 1 GiB) ${verdict(measured.peak, 256 * MIB)}`,
);
console.log(
  `this process: ${(peak / MIB).toFixed(0)} MiB at its peak, ${ratio(peak, rssAfterHistory)}x its peak after the history read`,
);
rmSync(path.join(repo, BLAME_CACHE_FILE), { force: true });
