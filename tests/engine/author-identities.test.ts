import { expect } from 'chai';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { RepositoryResult } from '@cadence-detect/plugin-sdk';
import { createRepository, makeTempDir, type TempDir } from '@cadence-detect/test-support';
import { attributionEngine } from './attribution-engine.js';

const T0 = Date.UTC(2025, 3, 1, 9) / 1000;

describe('engine: one author per person (.mailmap, shared e-mails, names and GitHub logins)', function () {
  this.timeout(60_000);
  let work: TempDir;

  before(async () => {
    work = await makeTempDir('cadence-identities-');
  });
  after(() => work.remove());

  it('merges what .mailmap maps, then identities sharing a name or a no-reply login (a name written as that login too); never a generic name or a bot by name', async () => {
    const dir = path.join(work.path, 'repo');
    await mkdir(dir);
    const commit = (i: number, name: string, email: string) => ({
      message: `Change ${i}`,
      date: T0 + i * 3600,
      author: { name, email },
      files: { [`f${i}.txt`]: `${i}\n` },
    });
    await createRepository(dir, [
      {
        ...commit(0, 'Ada Lovelace', 'ada@example.test'),
        files: { '.mailmap': 'Ada Lovelace <ada@example.test> <ada@old-laptop.local>\n' },
      },
      commit(1, 'ada', 'ada@old-laptop.local'),
      commit(2, 'Ada Lovelace', 'ada.lovelace@work.example'),
      commit(3, 'Grace Hopper', 'grace@example.test'),
      commit(4, 'grace-h', '1234567+grace-h@users.noreply.github.com'),
      commit(5, 'Grace Hopper', 'grace-h@users.noreply.github.com'),
      commit(6, 'root', 'root@host-a.local'),
      commit(7, 'root', 'root@host-b.local'),
      commit(8, 'dependabot[bot]', '49699333+dependabot[bot]@users.noreply.github.com'),
      // A name written as a login, and that login's no-reply e-mail under another name: one person.
      commit(9, 'matskkolstad', 'mats@example.test'),
      commit(10, 'Mats Kolstad', '98765+matskkolstad@users.noreply.github.com'),
    ]);
    const engine = attributionEngine();
    const result = (await engine.analyze(
      { kind: 'repository', url: dir, lines: false },
      { network: null, allowLocalPaths: true },
    )) as RepositoryResult;
    const byCommits = result.authors
      .map((a) => [a.author, a.email, a.commits])
      .sort((a, b) => String(a[1]).localeCompare(String(b[1])));
    expect(byCommits).to.deep.equal([
      ['dependabot[bot]', '49699333+dependabot[bot]@users.noreply.github.com', 1],
      ['Ada Lovelace', 'ada@example.test', 3],
      ['Grace Hopper', 'grace@example.test', 3],
      ['matskkolstad', 'mats@example.test', 2],
      ['root', 'root@host-a.local', 1],
      ['root', 'root@host-b.local', 1],
    ]);
    expect(result.metrics.authors).to.equal(6);
  });
});
