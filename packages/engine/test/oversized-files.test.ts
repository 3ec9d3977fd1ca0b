import { expect } from 'chai';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { createRepository, makeTempDir, type FixtureRepository, type TempDir } from '@cadence-detect/test-support';
import { defaultConfig, toPluginConfigView } from '@cadence-detect/config';
import type { PluginConfigView, RepositoryResult } from '@cadence-detect/plugin-sdk';
import { createEngine, silentEngineLogger, type EngineConfig } from '../src/index.js';

/** The configuration's own defaults, as plugins see them. */
const CONFIG_VIEW: PluginConfigView = toPluginConfigView(defaultConfig());

async function analyze(dir: string, maxDiffBlobMb?: number, since?: string): Promise<RepositoryResult> {
  const config: EngineConfig = {
    limits: {
      clone_timeout_seconds: 120,
      max_repo_size_mb: 2048,
      max_page_bytes: 1 << 20,
      fetch_timeout_seconds: 20,
      strategy_timeout_seconds: 30,
      ...(maxDiffBlobMb === undefined ? {} : { max_diff_blob_mb: maxDiffBlobMb }),
    },
    git: { depth: 0 },
  };
  const engine = createEngine({
    config,
    pluginConfig: structuredClone(CONFIG_VIEW),
    logger: silentEngineLogger(),
    plugins: [],
  });
  return (await engine.analyze(
    { kind: 'repository', url: dir, ...(since ? { since } : {}) },
    { network: null, allowLocalPaths: true },
  )) as RepositoryResult;
}

describe('engine: files above limits.max_diff_blob_mb', function () {
  this.timeout(60_000);
  let work: TempDir;
  let repo: FixtureRepository;

  before(async () => {
    work = await makeTempDir('cadence-oversized-');
    const dir = path.join(work.path, 'repo');
    await mkdir(dir);
    repo = await createRepository(dir, [
      { message: 'small', date: 1_700_000_000, addLines: 5 },
      // 3 MB of two-character lines.
      { message: 'big', date: 1_700_000_600, files: { 'big.txt': 'a\n'.repeat(1_500_000) } },
    ]);
  });
  after(() => work.remove());

  it('says how many files were counted without a line diff, and in which commits', async () => {
    const result = await analyze(repo.dir, 1);
    expect(result.oversized_files).to.deep.equal({ files: 1, max_diff_blob_mb: 1, commits: [repo.hashes[1]] });
    expect(result.total_commits).to.equal(2);
  });

  // The whole history's line pass (the default) and the blame of a `--since` analysis read the tree
  // and diff within the same cap: a file the history counts as binary is in no line count.
  for (const since of [undefined, '2023-01-01']) {
    it(`counts a file above the cap as binary in the lines at the head too (${since ? '--since' : 'the whole history\u2019s pass'})`, async () => {
      const capped = await analyze(repo.dir, 1, since);
      const uncapped = await analyze(repo.dir, undefined, since);
      expect(uncapped.lines?.counted).to.be.at.least(1_500_000);
      expect(capped.lines?.counted).to.equal(uncapped.lines!.counted - 1_500_000);
      expect(capped.lines?.binary_files).to.equal(uncapped.lines!.binary_files + 1);
    });
  }

  it('says nothing when every blob is below the cap (16 MiB when unset)', async () => {
    const result = await analyze(repo.dir);
    expect(result).not.to.have.property('oversized_files');
  });
});
