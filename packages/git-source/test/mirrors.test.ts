import { expect } from 'chai';
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import {
  eventually,
  createRepository,
  exportRepository,
  humanHistory,
  makeTempDir,
  runGit,
  startGitDaemon,
  startGitHttpServer,
  type GitDaemon,
  type GitHttpServer,
  type TempDir,
} from '@cadence-detect/test-support';
import {
  evictMirrors,
  HistoryCache,
  mirrorKey,
  openRepository,
  parseRepositoryUrl,
  readHistory,
} from '../src/index.js';
import { base } from './clone-options.js';

const remote = (url: string) => parseRepositoryUrl(url, { allowLocalPaths: false });

/** Every file under `dir`, as text (a mirror is small here). */
async function everyFileText(dir: string): Promise<string> {
  let text = '';
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) text += await readFile(path.join(entry.parentPath, entry.name), 'latin1');
  }
  return text;
}

describe('repository mirrors', function () {
  this.timeout(60_000);
  let work: TempDir;
  let daemon: GitDaemon;
  let http: GitHttpServer;
  let source: string;
  let served: string;

  before(async () => {
    work = await makeTempDir('cadence-mirrors-');
    served = path.join(work.path, 'served');
    source = path.join(work.path, 'human');
    const { mkdir } = await import('node:fs/promises');
    await mkdir(source);
    await mkdir(served);
    await createRepository(source, humanHistory(8));
    await exportRepository(served, 'acme/human.git', source);
    daemon = await startGitDaemon(served);
    http = await startGitHttpServer(served);
  });
  after(async () => {
    await daemon?.close();
    await http?.close();
    await work?.remove();
  });

  it('clones into a mirror once, then fetches only what is new', async () => {
    const mirrors = { dir: path.join(work.path, 'm1'), maxBytes: 1 << 30 };
    const first = await openRepository(remote(daemon.url('acme/human.git')), { ...base, mirrors });
    expect((await readHistory(first.dir, { rev: first.headCommit, excludeFiles: [] })).commits).to.have.length(8);
    expect(first.branch).to.equal('main');
    // Kept as the pack it came in (as git clone keeps it), not written out object by object.
    const objects = path.join(first.dir, 'objects');
    const looseFolders = (await readdir(objects)).filter((name) => /^[0-9a-f]{2}$/.test(name));
    expect(looseFolders, 'loose objects in a new mirror').to.deep.equal([]);
    expect((await readdir(path.join(objects, 'pack'))).filter((name) => name.endsWith('.pack'))).to.have.length(1);
    await first.dispose();

    // A push to the served repository: the next job fetches it into the same mirror.
    const repo = path.join(served, 'acme/human.git');
    const clone = path.join(work.path, 'pusher');
    await runGit(work.path, ['clone', '--quiet', repo, clone]);
    await runGit(clone, [
      '-c',
      'user.name=Ada',
      '-c',
      'user.email=ada@example.test',
      'commit',
      '--quiet',
      '--allow-empty',
      '-m',
      'New work',
    ]);
    await runGit(clone, ['push', '--quiet', 'origin', 'HEAD:main']);
    const second = await openRepository(remote(daemon.url('acme/human.git')), { ...base, mirrors });
    expect(second.dir).to.equal(first.dir);
    expect((await readHistory(second.dir, { rev: second.headCommit, excludeFiles: [] })).commits).to.have.length(9);
    await second.dispose();
    await second.dispose();
    expect((await readdir(mirrors.dir)).filter((n) => n.endsWith('.git'))).to.have.length(1);
  });

  /** A new 4-commit repository served as `name` (its source under `folder`). */
  async function serveNew(name: string, folder: string): Promise<void> {
    const src = path.join(work.path, folder);
    const { mkdir } = await import('node:fs/promises');
    await mkdir(src);
    await createRepository(src, humanHistory(4));
    await exportRepository(served, name, src);
  }

  it('asks the remote once and skips the fetch when the mirror already holds its branch and AI notes; fetches when either moved', async () => {
    const name = 'acme/quiet.git';
    await serveNew(name, 'quiet');
    const url = http.repoUrl(name);
    const mirrors = { dir: path.join(work.path, 'm-quiet'), maxBytes: 1 << 30 };
    const open = async () => {
      const before = http.requests();
      const opened = await openRepository(remote(url), { ...base, mirrors });
      await opened.dispose();
      return { opened, requests: http.requests() - before };
    };
    const first = await open();
    // What one ls-remote costs over smart HTTP, measured against this server.
    const before = http.requests();
    await runGit(work.path, ['ls-remote', '--symref', '--', url, 'HEAD']);
    const lsRemote = http.requests() - before;

    const unchanged = await open();
    expect(unchanged.opened.headCommit).to.equal(first.opened.headCommit);
    expect(unchanged.requests, 'nothing new: the ls-remote alone').to.equal(lsRemote);

    const repo = path.join(served, name);
    const pusher = path.join(work.path, 'quiet-pusher');
    await runGit(work.path, ['clone', '--quiet', repo, pusher]);
    await runGit(pusher, [
      '-c',
      'user.name=Ada',
      '-c',
      'user.email=ada@example.test',
      'commit',
      '--quiet',
      '--allow-empty',
      '-m',
      'Moved on',
    ]);
    await runGit(pusher, ['push', '--quiet', 'origin', 'HEAD:main']);
    const moved = await open();
    expect(moved.requests).to.be.greaterThan(lsRemote);
    expect(moved.opened.headCommit).to.not.equal(first.opened.headCommit);
    expect(moved.opened.headCommit).to.equal((await runGit(pusher, ['rev-parse', 'HEAD'])).trim());

    // Only an AI note arrives: the branch is where it was, and the mirror still fetches it.
    await runGit(pusher, [
      '-c',
      'user.name=Ada',
      '-c',
      'user.email=ada@example.test',
      'notes',
      '--ref=refs/notes/ai',
      'add',
      '-m',
      '{"schema":"authorship/3.0.0"}',
      'HEAD',
    ]);
    await runGit(pusher, ['push', '--quiet', 'origin', 'refs/notes/ai:refs/notes/ai']);
    const noted = await open();
    expect(noted.requests).to.be.greaterThan(lsRemote);
    expect(noted.opened.headCommit).to.equal(moved.opened.headCommit);
    const mirrorNotes = (
      await runGit(noted.opened.dir, ['for-each-ref', '--format=%(objectname)', 'refs/notes/ai'])
    ).trim();
    expect(mirrorNotes).to.equal((await runGit(pusher, ['rev-parse', 'refs/notes/ai'])).trim());
    expect((await open()).requests).to.equal(lsRemote);

    // A branch other than HEAD's, named: the same one round trip once its mirror holds it.
    await runGit(pusher, ['push', '--quiet', 'origin', 'HEAD:refs/heads/dev', 'HEAD:refs/heads/feature/HEAD']);
    const openDev = async () => {
      const start = http.requests();
      const opened = await openRepository(remote(url), { ...base, mirrors, branch: 'dev' });
      await opened.dispose();
      return { opened, requests: http.requests() - start };
    };
    expect((await openDev()).opened.branch).to.equal('dev');
    const again = await openDev();
    expect(again.requests).to.equal(lsRemote);
    expect(again.opened.headCommit).to.equal(moved.opened.headCommit);
  });

  it('judges a branch request by that branch: fetched the first time and when it moves, not when only another branch moved', async () => {
    const name = 'acme/branches.git';
    await serveNew(name, 'branches');
    const pusher = path.join(work.path, 'branches-pusher');
    await runGit(work.path, ['clone', '--quiet', path.join(served, name), pusher]);
    const commit = async (message: string, ref: string) => {
      await runGit(pusher, [
        '-c',
        'user.name=Ada',
        '-c',
        'user.email=ada@example.test',
        'commit',
        '--quiet',
        '--allow-empty',
        '-m',
        message,
      ]);
      await runGit(pusher, ['push', '--quiet', 'origin', `HEAD:${ref}`]);
      return (await runGit(pusher, ['rev-parse', 'HEAD'])).trim();
    };
    const featureHead = await commit('Feature work', 'refs/heads/feature');
    const url = http.repoUrl(name);
    const mirrors = { dir: path.join(work.path, 'm-branches'), maxBytes: 1 << 30 };
    const open = async (branch?: string) => {
      const before = http.requests();
      const opened = await openRepository(remote(url), { ...base, mirrors, ...(branch ? { branch } : {}) });
      await opened.dispose();
      return { opened, requests: http.requests() - before };
    };
    const mainFirst = await open();
    expect(mainFirst.opened.branch).to.equal('main');
    const lsRemote = (await open()).requests;

    // The mirror holds main only: the feature branch is fetched, then read from the mirror.
    const feature = await open('feature');
    expect(feature.requests).to.be.greaterThan(lsRemote);
    expect(feature.opened.branch).to.equal('feature');
    expect(feature.opened.headCommit).to.equal(featureHead);
    expect((await open('feature')).requests, 'feature unchanged').to.equal(lsRemote);

    // main moves: a feature request still needs nothing; a main request fetches.
    await runGit(pusher, ['reset', '--quiet', '--hard', mainFirst.opened.headCommit]);
    const mainHead = await commit('Main work', 'refs/heads/main');
    const stillFeature = await open('feature');
    expect(stillFeature.requests).to.equal(lsRemote);
    expect(stillFeature.opened.headCommit).to.equal(featureHead);
    const mainMoved = await open('main');
    expect(mainMoved.requests).to.be.greaterThan(lsRemote);
    expect(mainMoved.opened.headCommit).to.equal(mainHead);

    // feature moves: fetched again.
    await runGit(pusher, ['reset', '--quiet', '--hard', featureHead]);
    const featureNext = await commit('More feature work', 'refs/heads/feature');
    const featureMoved = await open('feature');
    expect(featureMoved.requests).to.be.greaterThan(lsRemote);
    expect(featureMoved.opened.headCommit).to.equal(featureNext);
  });

  it('keeps one mirror per credential identity and never writes a credential to disk', async () => {
    const mirrors = { dir: path.join(work.path, 'm2'), maxBytes: 1 << 30 };
    const plain = http.repoUrl('acme/human.git');
    const withToken = plain.replace('http://', 'http://builder:s3cret-token-value@');
    const withOther = plain.replace('http://', 'http://other:another-token-value@');
    const keys = new Set([mirrorKey(plain), mirrorKey(withToken), mirrorKey(withOther)]);
    expect(keys.size).to.equal(3);
    for (const url of [withToken, withOther, plain]) {
      const opened = await openRepository(remote(url), { ...base, mirrors });
      await opened.dispose();
    }
    expect((await readdir(mirrors.dir)).filter((n) => n.endsWith('.git'))).to.have.length(3);
    const everything = await everyFileText(mirrors.dir);
    expect(everything).to.not.contain('s3cret-token-value');
    expect(everything).to.not.contain('another-token-value');
    expect(everything).to.not.contain('builder');
  });

  it('lets one job at a time hold a repository’s mirror, across callers', async () => {
    const mirrors = { dir: path.join(work.path, 'm3'), maxBytes: 1 << 30 };
    const first = await openRepository(remote(daemon.url('acme/human.git')), { ...base, mirrors });
    let secondOpened = false;
    const progress: string[] = [];
    const second = openRepository(remote(daemon.url('acme/human.git')), {
      ...base,
      mirrors,
      onProgress: (message) => progress.push(message),
    }).then((opened) => {
      secondOpened = true;
      return opened;
    });
    await eventually(
      () => progress.includes('Waiting for the repository mirror another analysis holds'),
      'the second caller waiting',
    );
    expect(secondOpened).to.equal(false);
    await first.dispose();
    await (await second).dispose();
    expect(secondOpened).to.equal(true);
  });

  it('gives up waiting for a held mirror when the clone time runs out', async () => {
    const mirrors = { dir: path.join(work.path, 'm4'), maxBytes: 1 << 30 };
    const held = await openRepository(remote(daemon.url('acme/human.git')), { ...base, mirrors });
    try {
      const error = await openRepository(remote(daemon.url('acme/human.git')), {
        ...base,
        timeoutMs: 500,
        mirrors,
      }).catch((e: unknown) => e);
      expect(error).to.include({ code: 'ERR_GIT_CLONE_TIMEOUT' });
    } finally {
      await held.dispose();
    }
  });

  it('evicts the least recently used mirrors past the size cap, never one in use', async () => {
    const dir = path.join(work.path, 'm5');
    const big = { dir, maxBytes: 1 << 30 };
    const a = await openRepository(remote(daemon.url('acme/human.git')), { ...base, mirrors: big });
    await a.dispose();
    // Its size and last use are recorded after the job, in the background.
    const record = path.join(dir, `${mirrorKey(daemon.url('acme/human.git'))}.json`);
    await eventually(() => existsSync(record), 'the mirror\u2019s record', { timeoutMs: 2000 });
    const b = await openRepository(remote(http.repoUrl('acme/human.git')), { ...base, mirrors: big });
    // b is in use: a cap of one byte evicts a (older, free) and skips b.
    const evicted = await evictMirrors({ dir, maxBytes: 1 });
    expect(evicted).to.deep.equal([mirrorKey(daemon.url('acme/human.git'))]);
    expect((await readdir(dir)).filter((n) => n.endsWith('.git'))).to.deep.equal([
      `${mirrorKey(http.repoUrl('acme/human.git'))}.git`,
    ]);
    await b.dispose();
  });

  it('keeps the clone’s limits: a mirror growing past the size cap is refused and not kept, a guarded host is refused', async () => {
    const mirrors = { dir: path.join(work.path, 'm7'), maxBytes: 1 << 30 };
    const large = path.join(work.path, 'large');
    const { mkdir } = await import('node:fs/promises');
    const { randomBytes } = await import('node:crypto');
    await mkdir(large);
    const blobs = Object.fromEntries(
      Array.from({ length: 4 }, (_, i) => [`blob${i}.bin`, randomBytes(2 * 1024 * 1024).toString('base64')]),
    );
    await createRepository(large, [{ message: 'Large blobs', date: Date.UTC(2020, 0, 1) / 1000, files: blobs }]);
    await exportRepository(served, 'acme/large.git', large);
    const tooLarge = await openRepository(remote(daemon.url('acme/large.git')), {
      ...base,
      maxSizeBytes: 1024 * 1024,
      mirrors,
    }).catch((e: unknown) => e);
    expect(tooLarge).to.have.property('code', 'ERR_REPOSITORY_TOO_LARGE');
    expect((await readdir(mirrors.dir)).filter((n) => n.endsWith('.git'))).to.have.length(0);
    // The network guard runs before any mirror is touched: loopback is refused under a strict policy.
    const guarded = await openRepository(remote(daemon.url('acme/human.git')), {
      ...base,
      policy: { allowPrivateNetworks: false, allowedNetworks: [] },
      mirrors,
    }).catch((e: unknown) => e);
    expect(guarded).to.have.property('code', 'ERR_PRIVATE_ADDRESS');
  });

  it('leaves no mirror behind when the first clone fails', async () => {
    const mirrors = { dir: path.join(work.path, 'm6'), maxBytes: 1 << 30 };
    const error = await openRepository(remote(daemon.url('acme/missing.git')), { ...base, mirrors }).catch(
      (e: unknown) => e,
    );
    expect(error)
      .to.have.property('code')
      .that.matches(/ERR_GIT_CLONE_FAILED|ERR_NO_COMMITS_FOUND/);
    expect((await readdir(mirrors.dir)).filter((n) => n.endsWith('.git'))).to.have.length(0);
  });
});

describe('history cache (histories read from mirrors)', function () {
  this.timeout(60_000);
  let work: TempDir;

  before(async () => {
    work = await makeTempDir('cadence-history-cache-');
  });
  after(async () => {
    await work?.remove();
  });

  it('reads only what follows the cached head, and gives the same history as a full read, each reader its own copy', async () => {
    const dir = path.join(work.path, 'repo');
    const { mkdir } = await import('node:fs/promises');
    await mkdir(dir);
    const repo = await createRepository(dir, humanHistory(30));
    const cache = new HistoryCache();
    const first = await readHistory(dir, { rev: repo.hashes.at(-1)!, excludeFiles: [], cache });
    expect(first.commits).to.have.length(30);
    // A plugin that changes what it was given changes nothing for the next reader.
    (first.commits[0] as unknown as { subject: string }).subject = 'changed by a reader';
    await repo.commit({ message: 'One more', date: Date.UTC(2019, 5, 1) / 1000, addLines: 12 });
    await repo.commit({ message: 'And another', date: Date.UTC(2019, 5, 2) / 1000, addLines: 3 });
    const head = (await runGit(dir, ['rev-parse', 'HEAD'])).trim();
    let progress = 0;
    const second = await readHistory(dir, {
      rev: head,
      excludeFiles: [],
      cache,
      onProgress: (read) => (progress = Math.max(progress, read)),
    });
    expect(progress, 'only the two new commits were read from git').to.equal(2);
    const full = await readHistory(dir, { rev: head, excludeFiles: [] });
    expect(second.commits).to.deep.equal(full.commits);
    expect(second.stats).to.deep.equal(full.stats);
    // A head that does not descend from the cached one (a force push) is read in full.
    await runGit(dir, ['reset', '--quiet', '--hard', 'HEAD~3']);
    await repo.commit({ message: 'Rewritten', date: Date.UTC(2019, 6, 1) / 1000, addLines: 5 });
    const rewritten = (await runGit(dir, ['rev-parse', 'HEAD'])).trim();
    const third = await readHistory(dir, { rev: rewritten, excludeFiles: [], cache });
    expect(third.commits).to.have.length(30);
    expect(third.commits.at(-1)!.subject).to.equal('Rewritten');
  });
});
