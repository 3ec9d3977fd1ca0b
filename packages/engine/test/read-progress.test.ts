import { expect } from 'chai';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { AnalysisEvent } from '@cadence-detect/plugin-sdk';
import { createRepository, eventually, makeTempDir, type TempDir } from '@cadence-detect/test-support';
import { readProgress } from '../src/sources/read-progress.js';

describe('engine: reading a history says how far it has got, by commit', function () {
  this.timeout(30_000);
  let work: TempDir;
  before(async () => {
    work = await makeTempDir('cadence-read-progress-');
  });
  after(() => work.remove());

  it('progress events count commits read against the history\u2019s total, and a sentence every 10,000', async () => {
    const dir = path.join(work.path, 'repo');
    await mkdir(dir);
    await createRepository(dir, [
      { message: 'one', date: 1_700_000_000, addLines: 1 },
      { message: 'two', date: 1_700_003_600, addLines: 1 },
      { message: 'three', date: 1_700_007_200, addLines: 1 },
    ]);
    const events: AnalysisEvent[] = [];
    const onProgress = readProgress(dir, 'HEAD', (event) => events.push(event), new AbortController().signal);
    // The total comes from one git process beside the read: no progress event until it is known.
    await eventually(() => {
      onProgress(2);
      return events.some((e) => e.event === 'progress');
    }, 'a progress event once the total is known');
    expect(events.find((e) => e.event === 'progress')).to.deep.equal({
      event: 'progress',
      commits_analyzed: 2,
      total_commits: 3,
    });
    expect(events.some((e) => e.event === 'fetch')).to.equal(false);
    onProgress(10_000);
    expect(events.at(-1)).to.deep.equal({ event: 'fetch', message: 'read 10000 commits' });
  });
});
