// `node bench/corpus/numstat-context.mjs`: how many of the corpus's commits change their counts
// when numstat counts without context (`-c diff.context=0`, as the history read does) rather than
// with git's default three lines (as the commit model's fitting data was read). A bound on what
// the change can move in `pnpm bench corpus`: a commit whose counts are the same reads the same.
// Needs the mirrors (CADENCE_MIRRORS); paths whose versions a mirror lacks are left out, as the
// corpus build leaves them out.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { loadCorpusConfig, mirrorOf, pathsWithMissingObjects } from './build.mjs';

/** Each commit's added lines, deleted lines and files, as `git log --numstat` counts them. */
function countsByCommit(mirror, withoutContext, omitted) {
  const out = execFileSync(
    'git',
    [
      ...(withoutContext ? ['-c', 'diff.context=0'] : []),
      'log',
      '-z',
      '--numstat',
      '-M',
      '--no-indent-heuristic',
      '--no-color',
      '--format=%x01%H',
      'HEAD',
      '--',
      '.',
      ...omitted.map((path) => `:(exclude,literal)${path}`),
    ],
    { cwd: mirror, maxBuffer: 2 ** 30, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] },
  );
  const counts = new Map();
  for (const chunk of out.split('\x01').slice(1)) {
    let added = 0;
    let deleted = 0;
    let files = 0;
    for (const [, a, d] of chunk.slice(40).matchAll(/(\d+|-)\t(\d+|-)\t/g)) {
      files++;
      if (a !== '-') added += Number(a);
      if (d !== '-') deleted += Number(d);
    }
    counts.set(chunk.slice(0, 40), { added, deleted, files });
  }
  return counts;
}

let commits = 0;
let changed = 0;
const moved = [];
for (const { repo } of loadCorpusConfig().repositories) {
  const mirror = mirrorOf(repo);
  if (!existsSync(mirror)) continue;
  const omitted = pathsWithMissingObjects(mirror, 'HEAD');
  const before = countsByCommit(mirror, false, omitted);
  const after = countsByCommit(mirror, true, omitted);
  let differ = 0;
  for (const [hash, counts] of before) {
    const other = after.get(hash) ?? { added: 0, deleted: 0, files: 0 };
    if (other.added === counts.added && other.deleted === counts.deleted && other.files === counts.files) continue;
    differ++;
    moved.push(Math.abs(counts.added - other.added) + Math.abs(counts.deleted - other.deleted));
  }
  commits += before.size;
  changed += differ;
  console.log(`${repo}: ${before.size} commits, ${differ} counted otherwise`);
}
moved.sort((a, b) => a - b);
console.log(
  `${commits} commits, ${changed} (${((100 * changed) / commits).toFixed(2)}%) counted otherwise; lines moved per such commit: median ${moved[moved.length >> 1] ?? 0}, 90th percentile ${moved[Math.floor(moved.length * 0.9)] ?? 0}, most ${moved.at(-1) ?? 0}`,
);
