import { expect } from 'chai';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import {
  createRepository,
  exportRepository,
  humanHistory,
  makeTempDir,
  startGitHttpServer,
  startHttpServer,
  type GitHttpServer,
  type TempDir,
  type TestHttpServer,
} from '@cadence-detect/test-support';
import { openRepository, parseRepositoryUrl, readHistory } from '../src/index.js';
import { base, loopbackAllowed, strict } from './clone-options.js';

const remote = (url: string) => parseRepositoryUrl(url, { allowLocalPaths: false });

describe('git source over smart HTTP (git http-backend)', function () {
  this.timeout(60_000);
  let work: TempDir;
  let backend: GitHttpServer;
  let redirector: TestHttpServer;
  let hashes: string[];

  before(async () => {
    work = await makeTempDir('cadence-git-http-');
    const served = path.join(work.path, 'served');
    const human = path.join(work.path, 'human');
    await mkdir(served);
    await mkdir(human);
    hashes = [...(await createRepository(human, humanHistory(9))).hashes];
    await exportRepository(served, 'acme/human.git', human);
    backend = await startGitHttpServer(served);
    // Answers every request with a redirect to the real repository, as a moved project would.
    redirector = await startHttpServer((request, response) => {
      response.writeHead(301, { location: backend.url(request.url ?? '/') });
      response.end();
    });
  });
  after(async () => {
    await redirector?.close();
    await backend?.close();
    await work?.remove();
  });

  it('clones over http and reads the whole history', async () => {
    const clone = await openRepository(remote(backend.repoUrl('acme/human.git')), base);
    try {
      const { commits } = await readHistory(clone.dir, { rev: clone.headCommit, before: null, excludeFiles: [] });
      expect(commits.map((c) => c.hash)).to.deep.equal(hashes);
      expect(clone.branch).to.equal('main');
    } finally {
      await clone.dispose();
    }
  });

  it('clones by host name under the guard, pinned to the address it checked, and refuses the name when loopback is not allowed', async () => {
    const byName = remote(backend.repoUrl('acme/human.git', 'localhost'));
    const served = backend.requests();
    const refused = await openRepository(byName, { ...base, policy: strict }).catch((e: unknown) => e);
    expect(refused).to.have.property('code', 'ERR_PRIVATE_ADDRESS');
    expect(backend.requests(), 'the refused clone never reached the server').to.equal(served);
    // git gets `localhost` pinned to the address the guard checked (http.curloptResolve): a
    // malformed pin would fail the clone.
    const clone = await openRepository(byName, { ...base, policy: loopbackAllowed });
    expect(clone.headCommit).to.equal(hashes.at(-1));
    await clone.dispose();
  });

  it('never follows a redirect, which could lead a checked clone to another host', async () => {
    const served = backend.requests();
    for (const policy of [null, loopbackAllowed]) {
      const failed = await openRepository(remote(redirector.url('/acme/human.git')), { ...base, policy }).catch(
        (e: unknown) => e,
      );
      expect(failed).to.have.property('code', 'ERR_GIT_CLONE_FAILED');
    }
    expect(backend.requests(), 'no request followed the redirect').to.equal(served);
  });

  it('fetches a pushed commit that a shallow clone lacks', async () => {
    const clone = await openRepository(remote(backend.repoUrl('acme/human.git')), {
      ...base,
      depth: 2,
      fetchCommit: hashes[3]!,
    });
    try {
      const { commits } = await readHistory(clone.dir, { rev: hashes[3]!, before: hashes[1]!, excludeFiles: [] });
      expect(commits.map((c) => c.hash)).to.deep.equal(hashes.slice(2, 4));
    } finally {
      await clone.dispose();
    }
  });

  it('keeps credentials of the URL out of the error', async () => {
    const url = backend.repoUrl('acme/absent.git').replace('http://', 'http://deploy:s3cr3t-token@');
    const failed = await openRepository(remote(url), base).catch((e: unknown) => e);
    expect(failed).to.have.property('code', 'ERR_GIT_CLONE_FAILED');
    expect(String((failed as Error).message))
      .to.contain('acme/absent.git')
      .and.not.contain('s3cr3t-token');
  });
});
