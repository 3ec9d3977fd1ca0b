import { expect } from 'chai';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { RepositoryResult } from '@cadence-detect/plugin-sdk';
import { createRepository, makeTempDir, type FixtureRepository, type TempDir } from '@cadence-detect/test-support';
import { analyzeWithAttribution } from './attribution-engine.js';

const DAY = 86_400;
const T0 = Date.UTC(2025, 0, 1, 12) / 1000;
const ADA = { name: 'Ada Example', email: 'ada@example.test' };

const rows = (prefix: string, count: number): string =>
  Array.from({ length: count }, (_, i) => `${prefix}${i + 1}\n`).join('');

const metadata = (keys: Record<string, string>): string =>
  JSON.stringify({
    schema_version: 'authorship/3.0.0',
    base_commit_sha: '',
    sessions: {},
    prompts: Object.fromEntries(
      Object.entries(keys).map(([key, tool]) => [key, { agent_id: { tool, id: 'x', model: 'm' } }]),
    ),
  });

/**
 * A long authorship log: 100 Claude lines, then 1,000 people's lines one entry each, so the
 * metadata that names the tool lies past the first 16 KiB of the note.
 */
const LONG_LOG = [
  'big.txt',
  '  d46277b929576d9f 1-100',
  ...Array.from({ length: 1000 }, (_, i) => `  h_31dce776f88375 ${101 + i}`),
  '---',
  metadata({ d46277b929576d9f: 'claude' }),
].join('\n');

/** An early log: an AI session keyed by a UUID, naming Cursor. */
const UUID = '0b9a6f2e-4c1d-4e8a-9f3b-2d7c5e1a8b64';
const UUID_LOG = ['small.txt', `  ${UUID} 1-4`, '---', metadata({ [UUID]: 'cursor' })].join('\n');

const analyze = (url: string): Promise<RepositoryResult> => analyzeWithAttribution({ kind: 'repository', url });

describe('engine: one reader of refs/notes/ai for commits and lines, one naming', function () {
  this.timeout(60_000);
  let work: TempDir;
  let repo: FixtureRepository;

  before(async () => {
    work = await makeTempDir('cadence-notes-one-');
    const dir = path.join(work.path, 'repo');
    await mkdir(dir);
    repo = await createRepository(dir, [
      { message: 'Start', date: T0, author: ADA, files: { 'README.md': 'hello\n' } },
      { message: 'Add the big table', date: T0 + DAY, author: ADA, files: { 'big.txt': rows('b', 1100) } },
      { message: 'Add the small list', date: T0 + 2 * DAY, author: ADA, files: { 'small.txt': rows('s', 6) } },
    ]);
    const [, big, small] = repo.hashes as [string, string, string];
    expect(Buffer.byteLength(LONG_LOG)).to.be.above(16 * 1024);
    await repo.git(['notes', '--ref=ai', 'add', '-m', LONG_LOG, big]);
    await repo.git(['notes', '--ref=ai', 'add', '-m', UUID_LOG, small]);
  });
  after(() => work.remove());

  it('a note over 16 KiB is attributed to the tool its metadata names, at the commit and in the lines', async () => {
    const result = await analyze(repo.dir);
    const [, big] = repo.hashes;
    const suspicion = result.suspicions.find((s) => s.commit === big);
    expect(suspicion, JSON.stringify(result.suspicions)).to.exist;
    expect(suspicion!.evidence).to.equal('explicit');
    expect(suspicion!.assistants).to.deep.equal(['Claude Code']);
    expect(result.lines!.assistants['Claude Code']).to.equal(100);
    expect(result.lines!.assistants).to.not.have.property('unnamed assistant');
  });

  it('an early log\u2019s UUID key makes its commit explicit, named once (Cursor, never cursor beside it)', async () => {
    const result = await analyze(repo.dir);
    const [, , small] = repo.hashes;
    const suspicion = result.suspicions.find((s) => s.commit === small);
    expect(suspicion?.evidence).to.equal('explicit');
    expect(suspicion?.assistants).to.deep.equal(['Cursor']);
    expect(result.lines!.assistants).to.deep.equal({ 'Claude Code': 100, Cursor: 4 });
    expect(result.lines!.explicit).to.equal(104);
  });
});
