import { expect } from 'chai';
import { createHash } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { makeTempDir, runCadence, runGit, type TempDir } from '@cadence-detect/test-support';

interface JsonReport {
  suspicions: Array<{ commit_hash: string; commit: string; message: string }>;
  detections: Array<{ strategy: string; commit?: string; message: string }>;
}

const T0 = Date.parse('2022-03-01T09:00:00Z') / 1000;

function commitObject(tree: string, parent: string, time: number, subject: string): string {
  const who = `Dev <dev@example.com> ${time} +0000`;
  return `tree ${tree}\nparent ${parent}\nauthor ${who}\ncommitter ${who}\n\n${subject}\n`;
}

function objectHash(content: string): string {
  return createHash('sha1')
    .update(`commit ${Buffer.byteLength(content)}\0${content}`)
    .digest('hex');
}

/**
 * Two sibling commits whose hashes share their first 7 hex digits: candidates of each are hashed
 * as git would until one of each side collides (a birthday search over 2^28 prefixes: some 20,000
 * candidates a side, a fraction of a second).
 */
function collidingPair(big: (n: number) => string, small: (n: number) => string): { big: string; small: string } {
  const bigByPrefix = new Map<string, string>();
  const smallByPrefix = new Map<string, string>();
  for (let n = 0; n < 400_000; n++) {
    const b = big(n);
    const bp = objectHash(b).slice(0, 7);
    if (smallByPrefix.has(bp)) return { big: b, small: smallByPrefix.get(bp)! };
    bigByPrefix.set(bp, b);
    const s = small(n);
    const sp = objectHash(s).slice(0, 7);
    if (bigByPrefix.has(sp)) return { big: bigByPrefix.get(sp)!, small: s };
    smallByPrefix.set(sp, s);
  }
  throw new Error('no 7-digit collision found');
}

describe('commit identity: two commits sharing a 7-character prefix', function () {
  this.timeout(60_000);
  let dir: TempDir;
  let bigHash: string;
  let fixHash: string;

  before(async () => {
    dir = await makeTempDir('cadence-identity-');
    const repo = dir.path;
    const git = (args: string[], env: NodeJS.ProcessEnv = {}) => runGit(repo, args, env);
    await git(['init', '-q', '-b', 'main']);
    await writeFile(path.join(repo, 'README.md'), 'Helo world\nline two\nline three\n');
    const stamp = `@${T0} +0000`;
    await git(['add', 'README.md']);
    await git(['-c', 'user.name=Dev', '-c', 'user.email=dev@example.com', 'commit', '-q', '-m', 'Start'], {
      GIT_AUTHOR_DATE: stamp,
      GIT_COMMITTER_DATE: stamp,
    });
    const root = (await git(['rev-parse', 'HEAD'])).trim();
    // The 5,000-line commit's tree, and the typo fix's tree (3 lines changed), both on top of the root.
    await writeFile(
      path.join(repo, 'generated.ts'),
      Array.from({ length: 5000 }, (_, i) => `export const value${i} = ${i};`).join('\n') + '\n',
    );
    await git(['add', 'generated.ts']);
    const bigTree = (await git(['write-tree'])).trim();
    await git(['rm', '-q', '--cached', 'generated.ts']);
    await writeFile(path.join(repo, 'README.md'), 'Hello world\nline 2\nline 3\n');
    await git(['add', 'README.md']);
    const fixTree = (await git(['write-tree'])).trim();
    const pair = collidingPair(
      (n) => commitObject(bigTree, root, T0 + 3600, `Add generated module (${n})`),
      (n) => commitObject(fixTree, root, T0 + 7200, `Fix typo in README (${n})`),
    );
    for (const [name, content] of [
      ['big', pair.big],
      ['fix', pair.small],
    ] as const) {
      const file = path.join(repo, `${name}.commit`);
      await writeFile(file, content);
      const written = (await git(['hash-object', '-t', 'commit', '-w', file])).trim();
      if (name === 'big') bigHash = written;
      else fixHash = written;
    }
    expect(bigHash.slice(0, 7)).to.equal(fixHash.slice(0, 7));
    expect(bigHash).to.not.equal(fixHash);
    // A merge of both, with both trees' changes, so the branch holds the two siblings.
    await git(['add', 'generated.ts']);
    const mergeTree = (await git(['write-tree'])).trim();
    const merge = (
      await git(['commit-tree', mergeTree, '-p', bigHash, '-p', fixHash, '-m', 'Merge'], {
        GIT_AUTHOR_NAME: 'Dev',
        GIT_AUTHOR_EMAIL: 'dev@example.com',
        GIT_COMMITTER_NAME: 'Dev',
        GIT_COMMITTER_EMAIL: 'dev@example.com',
        GIT_AUTHOR_DATE: `@${T0 + 7300} +0000`,
        GIT_COMMITTER_DATE: `@${T0 + 7300} +0000`,
      })
    ).trim();
    await git(['update-ref', 'refs/heads/main', merge]);
    await git(['fsck', '--strict']);
  });
  after(async () => {
    await dir?.remove();
  });

  it('reports the 5,000-line commit\u2019s findings against it, never against the typo fix, with unique abbreviations', async () => {
    // The heuristic scoring: the size finding alone makes the big commit a suspicion.
    await writeFile(path.join(dir.path, 'heuristic.yaml'), 'strategies:\n  disabled: [commit-model]\n');
    const run = await runCadence(['analyze', '.', '--json', '--config', 'heuristic.yaml'], { cwd: dir.path });
    expect(run.code, run.stderr).to.equal(0);
    const report = JSON.parse(run.stdout) as JsonReport;
    const onBig = report.detections.filter((d) => d.commit === bigHash);
    expect(
      onBig.map((d) => d.strategy),
      'the size finding belongs to the big commit',
    ).to.include('size');
    expect(
      report.detections.filter((d) => d.commit === fixHash),
      'the typo fix has no finding',
    ).to.deep.equal([]);
    const suspicion = report.suspicions.find((s) => s.commit === bigHash);
    expect(suspicion, JSON.stringify(report.suspicions)).to.not.equal(undefined);
    expect(suspicion!.message).to.contain('Add generated module');
    expect(suspicion!.commit_hash.length, 'lengthened past the shared 7 characters').to.be.greaterThan(7);
    expect(bigHash.startsWith(suspicion!.commit_hash)).to.equal(true);
    expect(fixHash.startsWith(suspicion!.commit_hash)).to.equal(false);
    expect(report.suspicions.some((s) => s.message.includes('Fix typo'))).to.equal(false);
  });
});
