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
