import { expect } from 'chai';
import { open, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { makeTempDir } from '@cadence-detect/test-support';
import { directorySize, watchDirectorySize } from '../src/directory-size.js';

/** Resolves with the bytes `watchDirectorySize` reported, or null if it said nothing within `ms`. */
function exceeded(dir: string, maxBytes: number, ms: number): { bytes: Promise<number | null>; stop: () => void } {
  let stop = (): void => undefined;
  const bytes = new Promise<number | null>((resolve) => {
    const timer = setTimeout(() => resolve(null), ms);
    stop = watchDirectorySize(dir, maxBytes, (size) => {
      clearTimeout(timer);
      resolve(size);
    });
  });
  return { bytes, stop: () => stop() };
}

describe('watchDirectorySize (the size cap while a clone runs)', function () {
  this.timeout(15_000);

  it('reports a folder growing past a cap it was near', async () => {
    const dir = await makeTempDir('cadence-size-near-');
    try {
      const watch = exceeded(dir.path, 1024 * 1024, 5000);
      await writeFile(path.join(dir.path, 'pack'), Buffer.alloc(2 * 1024 * 1024));
      expect(await watch.bytes).to.equal(2 * 1024 * 1024);
    } finally {
      await dir.remove();
    }
  });

  it('still reports a folder that was far below its cap when it jumps past it (checked every 2 s at least)', async () => {
    const dir = await makeTempDir('cadence-size-far-');
    try {
      const cap = 64 * 1024 ** 3;
      const watch = exceeded(dir.path, cap, 8000);
      await new Promise((resolve) => setTimeout(resolve, 300));
      // A sparse file: its size counts, its blocks are never written.
      const file = await open(path.join(dir.path, 'pack'), 'w');
      await file.truncate(cap + 1);
      await file.close();
      expect(await watch.bytes).to.equal(cap + 1);
      expect(await directorySize(dir.path)).to.equal(cap + 1);
    } finally {
      await dir.remove();
    }
  });

  it('says nothing once stopped, nor while the folder stays under its cap', async () => {
    const dir = await makeTempDir('cadence-size-quiet-');
    try {
      const under = exceeded(dir.path, 4 * 1024 * 1024, 600);
      await writeFile(path.join(dir.path, 'pack'), Buffer.alloc(1024 * 1024));
      expect(await under.bytes).to.equal(null);
      under.stop();
      const stopped = exceeded(dir.path, 1024, 600);
      stopped.stop();
      expect(await stopped.bytes).to.equal(null);
    } finally {
      await dir.remove();
    }
  });
});
