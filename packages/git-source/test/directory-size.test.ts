import { expect } from 'chai';
import { open, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { eventually, makeTempDir } from '@cadence-detect/test-support';
import { directorySize, watchDirectorySize } from '../src/directory-size.js';

/** Resolves with the bytes `watchDirectorySize` reported, or null if it said nothing within `ms`. */
function exceeded(
  dir: string,
  maxBytes: number,
  ms: number,
): { bytes: Promise<number | null>; measured: () => number; stop: () => void } {
  let stopWatch = (): void => undefined;
  let timer: NodeJS.Timeout | undefined;
  let measured = 0;
  const bytes = new Promise<number | null>((resolve) => {
    // The bound on a watch expected to say nothing, not a wait for one that will.
    timer = setTimeout(() => resolve(null), ms);
    stopWatch = watchDirectorySize(
      dir,
      maxBytes,
      (size) => {
        clearTimeout(timer);
        resolve(size);
      },
      { onMeasured: () => measured++ },
    );
  });
  const stop = (): void => {
    stopWatch();
    clearTimeout(timer);
  };
  return { bytes, measured: () => measured, stop };
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
      await eventually(() => watch.measured() > 0, 'the first measure, far below the cap');
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
      const under = exceeded(dir.path, 4 * 1024 * 1024, 10_000);
      await writeFile(path.join(dir.path, 'pack'), Buffer.alloc(1024 * 1024));
      // Two measures after the write: the folder was seen at 1 MiB and nothing was said.
      const seen = under.measured();
      await eventually(() => under.measured() >= seen + 2, 'two measures of the written folder');
      under.stop();
      expect(await Promise.race([under.bytes, Promise.resolve('silent')])).to.equal('silent');
      // A stopped watch and a running one on the same schedule: once the running one speaks, the
      // stopped one would have too.
      const stopped = exceeded(dir.path, 1024, 10_000);
      stopped.stop();
      const running = exceeded(dir.path, 1024, 10_000);
      expect(await running.bytes).to.equal(1024 * 1024);
      expect(stopped.measured()).to.equal(0);
      expect(await Promise.race([stopped.bytes, Promise.resolve('silent')])).to.equal('silent');
    } finally {
      await dir.remove();
    }
  });
});
