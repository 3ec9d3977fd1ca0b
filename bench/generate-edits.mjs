// Writes a synthetic history of partial edits with `git fast-import`: lines inserted, deleted and
// rewritten inside files that live on, renames, and pull requests merged with --no-ff while the main
// branch moves on in other files. What `pnpm bench history` measures the line pass on.
// Usage: node bench/generate-edits.mjs <dir> [commits=50000]
import { spawnSync } from 'node:child_process';
import { AUTHORS, generatorMain, random, startFastImport } from './generate-repo.mjs';

const FILES = 300;

export async function generateEditHistory(dir, commits) {
  const started = startFastImport(dir);
  if (!started) return dir;
  const { importer, done } = started;
  const next = random(7);
  const pick = (n) => Math.floor(next() * n);
  let time = Date.UTC(2016, 0, 1) / 1000;
  let mark = 0;
  let made = 0;
  let serial = 0;
  const write = (text) =>
    importer.stdin.write(text) ? Promise.resolve() : new Promise((r) => importer.stdin.once('drain', r));
  const line = () => `  value_${++serial} = compute(${pick(1e9)}, "${serial.toString(36)}");`;
  /** Main's files; a request's branch works on copies of the files it owns. */
  const main = new Map();
  const paths = () => [...main.keys()];

  /** One random edit of `content` (an array of lines), in place. */
  const edit = (content) => {
    const at = pick(content.length + 1);
    const roll = next();
    // Files hover around a few hundred lines: past 400, deletions are larger.
    if (content.length > 400 && roll < 0.4) content.splice(at, 10 + pick(60));
    else if (roll < 0.45 || content.length < 10) {
      const count = next() < 0.02 ? 200 + pick(600) : 1 + pick(20);
      content.splice(at, 0, ...Array.from({ length: count }, line));
    } else if (roll < 0.75) content.splice(at, 1 + pick(8));
    else for (let i = 0; i < 1 + pick(4) && at + i < content.length; i++) content[at + i] = line();
  };
  const blob = (path, content) => {
    const body = content.length === 0 ? '' : `${content.join('\n')}\n`;
    return `M 100644 inline ${path}\ndata ${Buffer.byteLength(body)}\n${body}\n`;
  };
  const commit = async (ref, parent, merge, changes, message) => {
    time += Math.floor(next() < 0.1 ? 20 + next() * 100 : 600 + next() * 20_000);
    const author = AUTHORS[pick(AUTHORS.length)];
    mark++;
    made++;
    let chunk = `commit ${ref}\nmark :${mark}\nauthor ${author} ${time} +0000\ncommitter ${author} ${time} +0000\ndata ${Buffer.byteLength(message)}\n${message}\n`;
    if (parent) chunk += `from :${parent}\n`;
    if (merge) chunk += `merge :${merge}\n`;
    await write(chunk + changes.join(''));
    return mark;
  };

  let tip = 0;
  // The first files.
  for (let f = 0; f < FILES; f += 30) {
    const changes = [];
    for (let g = f; g < f + 30; g++) {
      const content = Array.from({ length: 20 + pick(200) }, line);
      main.set(`src/dir${g % 20}/file${g}.txt`, content);
      changes.push(blob(`src/dir${g % 20}/file${g}.txt`, content));
    }
    tip = await commit('refs/heads/main', tip || null, null, changes, `Add files ${f} to ${f + 29}`);
  }
  while (made < commits) {
    if (next() < 0.08) {
      // A pull request: 2 to 4 commits on its files, main moving on in others, then a --no-ff merge.
      const base = tip;
      const owned = new Set(Array.from({ length: 1 + pick(3) }, () => paths()[pick(main.size)]));
      const branch = new Map([...owned].map((p) => [p, [...main.get(p)]]));
      let side = base;
      for (let c = 0; c < 2 + pick(3) && made < commits; c++) {
        const p = [...owned][pick(owned.size)];
        edit(branch.get(p));
        side = await commit('refs/heads/request', side, null, [blob(p, branch.get(p))], `Request change ${made}`);
      }
      for (let c = 0; c < pick(3) && made < commits; c++) {
        const others = paths().filter((p) => !owned.has(p));
        const p = others[pick(others.length)];
        edit(main.get(p));
        tip = await commit('refs/heads/main', tip, null, [blob(p, main.get(p))], `Change ${made}`);
      }
      if (made >= commits) break;
      for (const [p, content] of branch) main.set(p, content);
      tip = await commit(
        'refs/heads/main',
        tip,
        side,
        [...branch].map(([p, content]) => blob(p, content)),
        `Merge pull request #${made} from request`,
      );
      continue;
    }
    const changes = [];
    if (next() < 0.01) {
      const from = paths()[pick(main.size)];
      const to = `src/moved/${from.split('/').pop().replace('.txt', '')}-${made}.txt`;
      main.set(to, main.get(from));
      main.delete(from);
      changes.push(`R ${from} ${to}\n`);
    }
    const touched = new Set(Array.from({ length: 1 + pick(3) }, () => paths()[pick(main.size)]));
    for (const p of touched) {
      edit(main.get(p));
      changes.push(blob(p, main.get(p)));
    }
    tip = await commit('refs/heads/main', tip, null, changes, `Change ${made}: adjust module ${made % 97}`);
  }
  importer.stdin.end();
  await done;
  spawnSync('git', ['branch', '-D', '--quiet', 'request'], { cwd: dir });
  spawnSync('git', ['checkout', '--quiet', '-f', 'main'], { cwd: dir });
  return dir;
}

await generatorMain(import.meta.url, generateEditHistory, 'node bench/generate-edits.mjs <dir> [commits]');
