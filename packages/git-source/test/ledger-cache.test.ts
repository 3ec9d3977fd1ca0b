import { expect } from 'chai';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { makeTempDir, type TempDir } from '@cadence-detect/test-support';
import { loadKeptLines, saveKeptLines, type KeptLines } from '../src/ledger-cache.js';
import type { KeptCounts } from '../src/pass-counts.js';

const hash = (n: number): string => n.toString(16).padStart(40, '0');

/** A kept pass of `commits` commits and `files` files of 50 lines, with names JSON must escape. */
function keptPass(commits: number, files: number): KeptLines {
  const names = Array.from({ length: files }, (_, i) => `src/${i}/file "${i}"\t\u00e9\u{1f600}.ts`);
  names.push('__proto__', '123', 'constructor');
  return {
    ledger: {
      head: hash(commits - 1),
      commits: Array.from({ length: commits }, (_, i) => hash(i)),
      assistants: ['claude', null],
      movedLines: 17,
      files: new Map(
        names.map((name, i) => [name, Array.from({ length: 50 }, (_, k) => ((i * 50 + k) % commits) * 256)]),
      ),
      texts: new Map(names.map((name, i) => [name, Array.from({ length: 50 }, (_, k) => (i * 7919 + k) >>> 0)])),
    },
    rework: { lines: new Map([[hash(3), 4]]), marked: new Map([[hash(3), 1]]) },
    context: 'c0ffee',
    readings: new Map([
      ['commit-model/code-tokens@1', new Map(Array.from({ length: commits }, (_, i) => [hash(i), i / 7 - 3]))],
      ['other', new Map()],
    ]),
    // Each commit one or two files (its paths from the odd names), every tenth one left to numstat (-1).
    counts: keptCounts(commits, names),
  };
}

function keptCounts(commits: number, names: readonly string[]): KeptCounts {
  const starts: number[] = [];
  const paths: string[] = [];
  const lines: number[] = [];
  for (let i = 0; i < commits; i++) {
    starts.push(i % 10 === 9 ? -1 : paths.length);
    if (i % 10 === 9) continue;
    for (let f = 0; f <= i % 2; f++) {
      paths.push(names[(i + f) % names.length]!);
      lines.push(i % 7, f === 1 ? -1 : i % 3);
    }
  }
  return { hashes: Array.from({ length: commits }, (_, i) => hash(i)), starts, paths, counts: Int32Array.from(lines) };
}

describe('git-source: the kept one pass on disk', function () {
  this.timeout(30_000);
  let temp: TempDir;

  before(async () => {
    temp = await makeTempDir('cadence-ledger-cache-');
  });
  after(() => temp.remove());

  it('writes in pieces what reads back whole, odd file names and empty readings included', async () => {
    // Thousands of commits: the file is many pieces of 64 KiB.
    const kept = keptPass(5_000, 400);
    const file = path.join(temp.path, 'lines', 'kept.json');
    await saveKeptLines(file, 'key', kept);
    const text = await readFile(file, 'utf8');
    expect(text.length).to.be.greaterThan(4 * 65_536);
    const loaded = await loadKeptLines(file, 'key');
    expect(loaded).to.deep.equal(kept);
    // The same document as one JSON.stringify of the maps as objects.
    expect(JSON.parse(text)).to.deep.equal(
      JSON.parse(
        JSON.stringify({
          format: 6,
          key: 'key',
          head: kept.ledger.head,
          commits: kept.ledger.commits,
          assistants: kept.ledger.assistants,
          movedLines: kept.ledger.movedLines,
          context: kept.context,
          files: Object.fromEntries(kept.ledger.files),
          texts: Object.fromEntries(kept.ledger.texts!),
          rework: { lines: Object.fromEntries(kept.rework.lines), marked: Object.fromEntries(kept.rework.marked) },
          readings: Object.fromEntries(
            [...kept.readings!].map(([reader, values]) => [reader, Object.fromEntries(values)]),
          ),
          counts: {
            hashes: kept.counts!.hashes,
            starts: kept.counts!.starts,
            table: [...new Set(kept.counts!.paths)],
            files: kept.counts!.paths.map((p) => [...new Set(kept.counts!.paths)].indexOf(p)),
            lines: Array.from(kept.counts!.counts),
          },
        }),
      ),
    );
    expect(await loadKeptLines(file, 'another key')).to.equal(null);
  });

  it('reads damaged counts as none (numstat counts then), the rest of the pass kept', async () => {
    const file = path.join(temp.path, 'lines', 'damaged-counts.json');
    const kept = keptPass(30, 3);
    await saveKeptLines(file, 'key', kept);
    const document = JSON.parse(await readFile(file, 'utf8')) as { counts: { files: number[]; lines: number[] } };
    for (const damage of [
      (d: typeof document) => d.counts.files.push(99_999),
      (d: typeof document) => d.counts.lines.pop(),
      (d: typeof document) => (d.counts.lines[0] = 0.5),
    ]) {
      const copy = structuredClone(document);
      damage(copy);
      await writeFile(file, JSON.stringify(copy));
      const loaded = await loadKeptLines(file, 'key');
      expect(loaded?.counts).to.equal(undefined);
      expect(loaded?.ledger).to.deep.equal(kept.ledger);
    }
  });

  it('replaces a kept file whole, never leaving a piece of the old one', async () => {
    const file = path.join(temp.path, 'lines', 'replaced.json');
    await saveKeptLines(file, 'key', keptPass(5_000, 400));
    const smaller = keptPass(10, 2);
    await saveKeptLines(file, 'key', smaller);
    expect(await loadKeptLines(file, 'key')).to.deep.equal(smaller);
  });
});
