import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import {
  createRepository,
  exportRepository,
  makeTempDir,
  runGit,
  startGitDaemon,
  startHttpServer,
  type FixtureCommit,
} from '@cadence-detect/test-support';

const exec = promisify(execFile);

describe('test-support fixtures', () => {
  it('creates commits with the author dates asked for', async () => {
    const tmp = await makeTempDir();
    try {
      const repo = await createRepository(tmp.path, [
        { message: 'first', date: 1_500_000_000, addLines: 3 },
        { message: 'second', date: 1_500_003_600, addLines: 5 },
      ]);
      const log = await runGit(tmp.path, ['log', '--format=%at %s', '--reverse']);
      expect(log.trim().split('\n')).to.deep.equal(['1500000000 first', '1500003600 second']);
      expect(repo.hashes).to.have.length(2);
    } finally {
      await tmp.remove();
    }
  });

  it('makes, from a whole history at once, the commits one commit at a time makes', async () => {
    const history: FixtureCommit[] = [
      {
        message: 'Add the parser',
        date: 1_500_000_000,
        files: { 'src/parser.ts': 'export {};\n', 'README.md': '# x\n' },
      },
      {
        message: '\n\nFix: trailing blanks   \n\n\n\nbody line\t\n\nCo-authored-by: Bo <bo@example.test>\n\n',
        date: 1_500_003_600,
        committerDate: 1_500_007_200,
        author: { name: 'Bo Example', email: 'bo@example.test' },
        committer: { name: 'Cy Example', email: 'cy@example.test' },
        files: { 'src/parser.ts': 'export const x = 1;\n', 'docs/a b.md': 'ü ✓\n' },
      },
      { message: 'Remove the readme', date: 1_500_010_000, files: { 'README.md': null } },
      { message: 'Nothing changed', date: 1_500_020_000 },
      { message: 'Far future', date: 32_503_680_000_000 },
    ];
    const whole = await makeTempDir();
    const oneByOne = await makeTempDir();
    try {
      const imported = await createRepository(whole.path, history);
      const committed = await createRepository(oneByOne.path);
      for (const spec of history) await committed.commit(spec);
      // Equal hashes: the same trees, parents, identities, dates and cleaned-up messages.
      expect(imported.hashes).to.deep.equal(committed.hashes);
      expect(await runGit(whole.path, ['status', '--porcelain'])).to.equal('');
      expect(await runGit(whole.path, ['show', 'HEAD:docs/a b.md'])).to.equal('ü ✓\n');
    } finally {
      await whole.remove();
      await oneByOne.remove();
    }
  });

  it('runGit rejects with git\u2019s exit and message, and when git cannot start at all', async () => {
    const tmp = await makeTempDir();
    try {
      const failed = await runGit(tmp.path, ['rev-parse', '--verify', 'no-such-ref']).then(
        () => null,
        (error: unknown) => error as { code: number; stderr: string },
      );
      expect(failed?.code).to.equal(128);
      expect(failed?.stderr).to.match(/not a git repository|Needed a single revision/);
      const missing = await runGit(`${tmp.path}/no-such-folder`, ['status']).then(
        () => null,
        (error: unknown) => String(error),
      );
      expect(missing).to.match(/ENOENT/);
      // The helper that ran them still runs the next one.
      expect(await runGit(tmp.path, ['--version'])).to.match(/^git version /);
    } finally {
      await tmp.remove();
    }
  });

  it('serves a repository over git:// on loopback', async () => {
    const tmp = await makeTempDir();
    const served = await makeTempDir();
    try {
      await createRepository(tmp.path, [{ message: 'only', date: 1_600_000_000, addLines: 1 }]);
      await exportRepository(served.path, 'acme/widget.git', tmp.path);
      const daemon = await startGitDaemon(served.path);
      try {
        const { stdout } = await exec('git', ['ls-remote', daemon.url('acme/widget.git')]);
        expect(stdout).to.match(/refs\/heads\/main/);
      } finally {
        await daemon.close();
      }
    } finally {
      await tmp.remove();
      await served.remove();
    }
  });

  it('answers HTTP on 127.0.0.2', async () => {
    const server = await startHttpServer((_req, res) => res.end('hello'), '127.0.0.2');
    try {
      const body = await (await fetch(server.url('/'))).text();
      expect(body).to.equal('hello');
    } finally {
      await server.close();
    }
  });
});
