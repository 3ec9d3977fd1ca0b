import { expect } from 'chai';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { createRepository, makeTempDir, runGit } from '@cadence-detect/test-support';
import { NOTE_LIMITS, readNotes, SharedAuthorshipNotes } from '../src/index.js';
import { BatchBlobReader } from '../src/notes.js';

const MIB = 1024 * 1024;

/** `git cat-file --batch` output for blobs of these sizes, in 64 KiB chunks as a pipe delivers it. */
function batchOutput(sizes: readonly number[]): Buffer[] {
  const parts: Buffer[] = [];
  sizes.forEach((size, index) => {
    parts.push(Buffer.from(`${index.toString(16).padStart(40, '0')} blob ${size}\n`), Buffer.alloc(size, 0x61));
    parts.push(Buffer.from('\n'));
  });
  parts.push(Buffer.from(`${'f'.repeat(40)} missing\n`));
  const whole = Buffer.concat(parts);
  const chunks: Buffer[] = [];
  for (let offset = 0; offset < whole.length; offset += 65536) chunks.push(whole.subarray(offset, offset + 65536));
  return chunks;
}

function read(sizes: readonly number[], maxChars: number): BatchBlobReader {
  const reader = new BatchBlobReader(maxChars);
  for (const chunk of batchOutput(sizes)) reader.push(chunk);
  return reader;
}

describe('git-source: notes are read in linear time and cut while reading', () => {
  it('copies no more of a note than its cut, whatever the note weighs (16 MiB and 32 MiB notes copy the same)', () => {
    const small = read([16 * MIB], NOTE_LIMITS.noteChars);
    const large = read([32 * MIB], NOTE_LIMITS.noteChars);
    expect(small.bytesCopied).to.equal(large.bytesCopied);
    expect(large.bytesCopied).to.be.at.most(3 * NOTE_LIMITS.noteChars + 4);
    expect(large.results).to.have.length(2);
    expect(large.results[0]).to.have.length(NOTE_LIMITS.noteChars);
    expect(large.results[0]!.endsWith('\u2026')).to.equal(true);
    expect(large.results[1]).to.equal(undefined);
  });

  it('the whole-note reading (16 MiB cut) copies each byte once: bytes copied equal the notes\u2019 bytes up to the cut', () => {
    const reader = read([3 * MIB, 5 * MIB, 0, 1], NOTE_LIMITS.wholeNoteChars);
    expect(reader.bytesCopied).to.equal(8 * MIB + 1);
    expect(reader.results.map((r) => r?.length)).to.deep.equal([3 * MIB, 5 * MIB, 0, 1, undefined]);
  });

  it('splits headers and contents anywhere across chunks', () => {
    const whole = Buffer.concat(batchOutput([5, 70_000, 3]));
    const reader = new BatchBlobReader(1_000_000);
    for (let offset = 0; offset < whole.length; offset += 7) reader.push(whole.subarray(offset, offset + 7));
    expect(reader.results.map((r) => r?.length)).to.deep.equal([5, 70_000, 3, undefined]);
  });

  it('reads a repository\u2019s notes through git (a large note cut, the small one whole)', async function () {
    this.timeout(60_000);
    const work = await makeTempDir('cadence-notes-reader-');
    try {
      const dir = path.join(work.path, 'repo');
      await mkdir(dir);
      const repo = await createRepository(dir, [
        { message: 'one', date: 1_600_000_000, addLines: 2 },
        { message: 'two', date: 1_600_000_100, addLines: 2 },
      ]);
      await runGit(dir, ['notes', '--ref=refs/notes/ai', 'add', '-m', 'small note', repo.hashes[0]!]);
      await runGit(dir, ['notes', '--ref=refs/notes/ai', 'add', '-m', 'x'.repeat(100_000), repo.hashes[1]!]);
      const notes = await readNotes(dir);
      expect(notes.get(repo.hashes[0]!)).to.equal('small note\n');
      expect(notes.get(repo.hashes[1]!)).to.have.length(NOTE_LIMITS.noteChars);
    } finally {
      await work.remove();
    }
  });
});

describe('git-source: only the analysed commits\u2019 notes are read', () => {
  it('a note on an unmerged branch\u2019s commit is listed but never read', async function () {
    this.timeout(60_000);
    const work = await makeTempDir('cadence-notes-only-');
    try {
      const dir = path.join(work.path, 'repo');
      await mkdir(dir);
      const repo = await createRepository(dir, [{ message: 'one', date: 1_600_000_000, addLines: 2 }]);
      await runGit(dir, ['checkout', '-q', '-b', 'unmerged']);
      const side = await repo.commit({ message: 'side', date: 1_600_000_100, addLines: 2 });
      await runGit(dir, ['checkout', '-q', 'main']);
      await runGit(dir, ['notes', '--ref=refs/notes/ai', 'add', '-m', 'analysed', repo.hashes[0]!]);
      await runGit(dir, ['notes', '--ref=refs/notes/ai', 'add', '-m', 'x'.repeat(100_000), side]);
      const stats = { blobsRead: 0 };
      const notes = await readNotes(dir, undefined, undefined, undefined, new Set([repo.hashes[0]!]), stats);
      expect([...notes.keys()]).to.deep.equal([repo.hashes[0]!]);
      expect(stats.blobsRead).to.equal(1);
    } finally {
      await work.remove();
    }
  });
});

describe('git-source: one read of refs/notes/ai serves the commit level and the lines', () => {
  it('a read covering the commits asked for serves them (whole notes, parsed, and 16 KiB excerpts); only a wider ask reads again', async function () {
    this.timeout(60_000);
    const work = await makeTempDir('cadence-notes-shared-');
    try {
      const dir = path.join(work.path, 'repo');
      await mkdir(dir);
      const repo = await createRepository(dir, [
        { message: 'one', date: 1_600_000_000, addLines: 2 },
        { message: 'two', date: 1_600_000_100, addLines: 2 },
      ]);
      const [one, two] = repo.hashes as [string, string];
      const metadata = JSON.stringify({
        schema_version: 'authorship/3.0.0',
        prompts: { d46277b929576d9f: { agent_id: { tool: 'claude' } } },
      });
      await runGit(dir, [
        'notes',
        '--ref=refs/notes/ai',
        'add',
        '-m',
        `f.txt\n  d46277b929576d9f 1-2\n---\n${metadata}`,
        one,
      ]);
      // Past 16 KiB: 2,000 people's lines before the metadata that names the tool.
      const people = Array.from({ length: 2000 }, (_, i) => `  h_aa ${3 + i}`);
      const long = ['f.txt', '  d46277b929576d9f 1-2', ...people, '---', metadata].join('\n');
      await runGit(dir, ['notes', '--ref=refs/notes/ai', 'add', '-m', long, two]);
      const shared = new SharedAuthorshipNotes(dir);
      const whole = await shared.read(new Set([one, two]));
      const analysed = await shared.read(new Set([two]));
      expect(shared.readsMade).to.equal(1);
      expect([...analysed.logs.keys()]).to.deep.equal([two]);
      const parsed = analysed.logs.get(two);
      expect(typeof parsed === 'string' ? parsed : parsed!.tools).to.deep.equal(['claude']);
      expect(analysed.excerpts.get(two)).to.have.length(NOTE_LIMITS.noteChars);
      expect(whole.blobsRead).to.equal(2);
      await shared.read(new Set([one, two, 'f'.repeat(40)]));
      expect(shared.readsMade).to.equal(2);
    } finally {
      await work.remove();
    }
  });
});
