import { expect } from 'chai';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { BLAME_CACHE_FILE } from '@cadence-detect/git-source';
import type { AnalysisEvent, RepositoryResult } from '@cadence-detect/plugin-sdk';
import {
  createRepository,
  exportRepository,
  makeTempDir,
  runGit,
  startGitDaemon,
  type FixtureRepository,
  type GitDaemon,
  type TempDir,
} from '@cadence-detect/test-support';
import { attributionEngine } from './attribution-engine.js';

const DAY = 86_400;
const T0 = Date.UTC(2025, 5, 1, 12) / 1000;
const CLAUDE = '\n\nCo-authored-by: Claude <noreply@anthropic.com>\n';
const rows = (prefix: string, n: number): string =>
  `${Array.from({ length: n }, (_, i) => `${prefix}${i + 1}`).join('\n')}\n`;

/** The engine with a mirrors folder (as the server runs it) or without (a fresh clone per analysis). */
async function analyze(
  url: string,
  mirrors: string | null,
  since?: string,
): Promise<{ result: RepositoryResult; blamed: string | undefined; onePass: string | undefined }> {
  const engine = attributionEngine(
    mirrors ? { cache: { repositories_dir: mirrors, repositories_max_size: '1GB' } } : {},
  );
  const events: AnalysisEvent[] = [];
  const result = (await engine.analyze(
    { kind: 'repository', url, ...(since ? { since } : {}) },
    { network: null, allowLocalPaths: false, onEvent: (e) => events.push(e) },
  )) as RepositoryResult;
  const said = (start: string): string | undefined =>
    events.flatMap((e) => (e.event === 'fetch' && e.message.startsWith(start) ? [e.message] : []))[0];
  return { result, blamed: said('blamed '), onePass: said('lines in one pass') };
}

describe('engine: a whole history\u2019s lines in one pass kept in the mirror, a mirror\u2019s blames for --since', function () {
  this.timeout(90_000);
  let work: TempDir;
  let daemon: GitDaemon;
  let repo: FixtureRepository;
  let served: string;
  let mirrors: string;

  before(async () => {
    work = await makeTempDir('cadence-blame-cache-');
    const dir = path.join(work.path, 'repo');
    await mkdir(dir);
    repo = await createRepository(dir, [
      {
        message: 'Initial import',
        date: T0,
        files: { 'a.txt': rows('a', 8), 'b.txt': rows('b', 5), 'src/c.txt': rows('c', 6) },
      },
      {
        message: `Rework a${CLAUDE}`,
        date: T0 + DAY,
        files: { 'a.txt': `a1\nx2\nx3\n${rows('a', 8).split('\n').slice(3).join('\n')}` },
      },
      {
        message: 'Rename c',
        date: T0 + 2 * DAY,
        files: { 'src/c.txt': null, 'lib/c.txt': `c1\ny2\n${rows('c', 6).split('\n').slice(2).join('\n')}` },
      },
    ]);
    const base = path.join(work.path, 'served');
    await mkdir(base);
    served = await exportRepository(base, 'acme/lines.git', dir);
    daemon = await startGitDaemon(base);
    mirrors = path.join(work.path, 'mirrors');
  });
  after(async () => {
    await daemon?.close();
    await work?.remove();
  });

  it('reads a whole history\u2019s lines in one pass, blaming no file, on a mirror as on a fresh clone, before and after a push', async () => {
    const url = daemon.url('acme/lines.git');
    const first = await analyze(url, mirrors);
    expect(first.onePass).to.equal(
      'lines in one pass over 3 commits: 0 files blamed, 0 moved lines kept with their writers',
    );
    expect(first.blamed).to.equal(undefined);
    const second = await analyze(url, mirrors);
    expect(second.onePass).to.match(
      /^lines in one pass over 3 commits \(3 of them kept from the last analysis\): 0 files blamed/,
    );
    expect(second.result.lines).to.deep.equal(first.result.lines);
    expect(second.result.survival).to.deep.equal(first.result.survival);

    // A push that rewrites part of b.txt.
    await repo.commit({ message: `Rework b${CLAUDE}`, date: T0 + 3 * DAY, files: { 'b.txt': 'b1\nz2\nz3\nb4\nb5\n' } });
    await runGit(repo.dir, ['push', '--quiet', served, `${repo.branch}:${repo.branch}`]);
    const third = await analyze(url, mirrors);
    // Only the new commit is replayed: the mirror kept the pass.
    expect(third.onePass).to.match(
      /^lines in one pass over 4 commits \(3 of them kept from the last analysis\): 0 files blamed/,
    );
    const fresh = await analyze(url, null);
    expect(third.result.lines).to.deep.equal(fresh.result.lines);
    expect(third.result.survival).to.deep.equal(fresh.result.survival);
    expect(third.result.lines!.explicit).to.equal(first.result.lines!.explicit + 2);
  });

  it('--since on a mirror blames every file once, then answers from the mirror; a damaged cache file is an empty cache', async () => {
    const url = daemon.url('acme/lines.git');
    const since = new Date((T0 - DAY) * 1000).toISOString();
    const first = await analyze(url, mirrors, since);
    expect(first.blamed).to.equal("blamed 3 files, 0 unchanged since the mirror's last line count");
    const second = await analyze(url, mirrors, since);
    expect(second.blamed).to.equal("blamed 0 files, 3 unchanged since the mirror's last line count");
    expect(second.result.lines).to.deep.equal(first.result.lines);
    const kept = (await readdir(mirrors)).filter((name) => name.endsWith('.git'));
    expect(kept).to.have.length(1);
    const file = path.join(mirrors, kept[0]!, BLAME_CACHE_FILE);
    expect(JSON.parse(await readFile(file, 'utf8'))).to.have.property('files');
    await writeFile(file, '{"format": 1, "flags": "-w -M", "commits": [], "files": {');
    const damaged = await analyze(url, mirrors, since);
    expect(damaged.blamed).to.equal("blamed 3 files, 0 unchanged since the mirror's last line count");
    expect(damaged.result.lines).to.deep.equal((await analyze(url, null, since)).result.lines);
  });
});
