import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { makeTempDir, runGit, type TempDir } from '@cadence-detect/test-support';
import { replayLedger } from '../src/history-ledger.js';

const COMMITS = 300;
const LINES = 120;

/** V8's collector, for measuring what stays reachable (the flag only exposes it to new contexts). */
function collector(): () => void {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

/** A history of COMMITS commits, each rewriting every line of one file, written with `git fast-import`. */
function writeHistory(dir: string): void {
  const parts: string[] = [];
  for (let c = 0; c < COMMITS; c++) {
    const body = Array.from({ length: LINES }, (_, i) => `line ${i} of version ${c}: ${'x'.repeat(60)}`).join('\n');
    const message = `Version ${c}`;
    const time = 1_700_000_000 + c * 3600;
    parts.push(
      `commit refs/heads/main\nauthor Ada <ada@example.test> ${time} +0000\ncommitter Ada <ada@example.test> ${time} +0000\n` +
        `data ${Buffer.byteLength(message)}\n${message}\nM 100644 inline notes.txt\ndata ${Buffer.byteLength(body) + 1}\n${body}\n\n`,
    );
  }
  const imported = spawnSync('git', ['fast-import', '--quiet'], { cwd: dir, input: parts.join('') });
  expect(imported.status, String(imported.stderr)).to.equal(0);
}

describe('history ledger: memory', function () {
  this.timeout(60_000);
  let temp: TempDir;
  before(async () => {
    temp = await makeTempDir('cadence-ledger-memory-');
  });
  after(() => temp.remove());

  it('keeps what it reports (hashes, writers), not the patch text it read them from', async () => {
    const dir = temp.path;
    await runGit(dir, ['init', '-q', '-b', 'main']);
    writeHistory(dir);
    const head = (await runGit(dir, ['rev-parse', 'HEAD'])).trim();
    const log = await runGit(dir, ['log', '--format=%H %P', 'HEAD']);
    const parents = new Map(
      log
        .trim()
        .split('\n')
        .map((line) => [line.slice(0, 40), line.slice(41).split(' ').filter(Boolean)]),
    );
    const patchBytes = (await runGit(dir, ['log', '-p', '-U0', '-w', '-M', 'HEAD'])).length;
    const gc = collector();
    await new Promise((resolve) => setImmediate(resolve));
    gc();
    gc();
    const before = process.memoryUsage().heapUsed;
    const ledger = await replayLedger(dir, head, { follows: () => true, parents });
    await new Promise((resolve) => setImmediate(resolve));
    gc();
    gc();
    const kept = process.memoryUsage().heapUsed - before;
    expect(ledger.commits).to.have.length(COMMITS);
    expect(ledger.files.get('notes.txt')).to.have.length(LINES);
    // A hash kept as a view into the text it was read from keeps that text: the whole log here.
    expect(patchBytes).to.be.above(5_000_000);
    expect(kept, `${kept} bytes kept of ${patchBytes} read`).to.be.below(patchBytes / 10);
  });
});
