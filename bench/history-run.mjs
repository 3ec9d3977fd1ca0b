// Runs bench/history-worker.mjs in a process of its own with `args`: its JSON answer and the wall time.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));

export function runHistoryWorker(args, label) {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(process.execPath, [path.join(here, 'history-worker.mjs'), ...args], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (c) => (out += c));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`${label} exited ${code}`));
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      resolve({ seconds, ...JSON.parse(out) });
    });
  });
}
