// Writes a synthetic repository of many commits with `git fast-import`, in seconds.
// Usage: node bench/generate-repo.mjs <dir> [commits=50000]
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const AUTHORS = [
  'Ada <ada@example.test>',
  'Grace <grace@example.test>',
  'Linus <linus@example.test>',
  'Barbara <barbara@example.test>',
  'Ken <ken@example.test>',
];

/** Deterministic pseudo-random numbers, so every run measures the same repository. */
export function random(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

/** A new repository at `dir` fed by `git fast-import`: the importer and a promise of its end; null when the repository exists already. */
export function startFastImport(dir) {
  if (existsSync(`${dir}/.git`)) return null;
  mkdirSync(dir, { recursive: true });
  spawnSync('git', ['init', '--quiet', '--initial-branch=main', dir], { stdio: 'inherit' });
  const importer = spawn('git', ['fast-import', '--quiet'], { cwd: dir, stdio: ['pipe', 'inherit', 'inherit'] });
  const done = new Promise((resolve, reject) => {
    importer.on('error', reject);
    importer.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`git fast-import exited ${code}`))));
  });
  return { importer, done };
}

export async function generateRepository(dir, commits) {
  const started = startFastImport(dir);
  if (!started) return dir;
  const { importer, done } = started;
  const next = random(42);
  let time = Date.UTC(2015, 0, 1) / 1000;
  const write = (text) =>
    importer.stdin.write(text) ? Promise.resolve() : new Promise((r) => importer.stdin.once('drain', r));
  for (let i = 1; i <= commits; i++) {
    time += Math.floor(next() < 0.1 ? 20 + next() * 100 : 600 + next() * 20_000);
    const author = AUTHORS[Math.floor(next() * AUTHORS.length)];
    const message = `Change ${i}: adjust module ${i % 97}`;
    let chunk = `commit refs/heads/main\nmark :${i}\nauthor ${author} ${time} +0000\ncommitter ${author} ${time} +0000\ndata ${Buffer.byteLength(message)}\n${message}\n`;
    if (i > 1) chunk += `from :${i - 1}\n`;
    const files = 1 + Math.floor(next() * 3);
    for (let f = 0; f < files; f++) {
      const lines = next() < 0.02 ? 400 + Math.floor(next() * 2000) : 1 + Math.floor(next() * 40);
      const body =
        Array.from({ length: lines }, (_, l) => `line ${l} of change ${i} ${Math.floor(next() * 1e9)}`).join('\n') +
        '\n';
      chunk += `M 100644 inline src/dir${i % 50}/file${(i + f) % 400}.txt\ndata ${Buffer.byteLength(body)}\n${body}\n`;
    }
    await write(chunk);
  }
  importer.stdin.end();
  await done;
  spawnSync('git', ['checkout', '--quiet', '-f', 'main'], { cwd: dir });
  return dir;
}

/** `node <script> <dir> [commits]`: runs `generate` when `url` (the script's import.meta.url) is the script run. */
export async function generatorMain(url, generate, usage) {
  if (process.argv[1] !== fileURLToPath(url)) return;
  const dir = process.argv[2];
  const commits = Number(process.argv[3] ?? 50_000);
  if (!dir) {
    console.error(`usage: ${usage}`);
    process.exit(2);
  }
  const started = Date.now();
  await generate(dir, commits);
  console.log(`generated ${commits} commits in ${dir} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

await generatorMain(import.meta.url, generateRepository, 'node bench/generate-repo.mjs <dir> [commits]');
