// `git blame --porcelain` for the line benchmarks: each line's commit, and the file's path there.
import { spawn } from 'node:child_process';

/** `git blame <flags> --porcelain HEAD -- file`: per line, its commit and the file's path at that commit. */
export function blameLines(dir, file, flags = ['-w', '-M']) {
  return new Promise((resolve, reject) => {
    const child = spawn('git', ['blame', ...flags, '--porcelain', 'HEAD', '--', file], {
      cwd: dir,
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (chunk) => (out += chunk));
    child.on('error', reject);
    child.on('close', () => {
      // Porcelain names a commit's path once, at the commit's first line.
      const lines = [];
      const paths = new Map();
      let at = -1;
      for (const line of out.split('\n')) {
        const header = /^([0-9a-f]{40}) \d+ (\d+)/.exec(line);
        if (header) {
          at = Number(header[2]) - 1;
          lines[at] = { commit: header[1] };
        } else if (line.startsWith('filename ') && at >= 0) paths.set(lines[at].commit, line.slice(9));
      }
      resolve(lines.map(({ commit }) => ({ commit, path: paths.get(commit) ?? file })));
    });
  });
}

/** Runs `work` on each item, two at a time (the benchmarks' machines have two cores). */
export async function inTwos(items, work) {
  const queue = [...items];
  const worker = async () => {
    for (let item = queue.shift(); item !== undefined; item = queue.shift()) await work(item);
  };
  await Promise.all([worker(), worker()]);
}
