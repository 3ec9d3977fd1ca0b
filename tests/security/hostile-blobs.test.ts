import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import {
  createRepository,
  exportRepository,
  humanHistory,
  jsonPost,
  makeTempDir,
  runCadence,
  runGit,
  startCadenceServer,
  startCadenceWorker,
  startGitDaemon,
  startRedisServer,
  waitForJob,
  type GitDaemon,
  type ServerProcess,
  type TempDir,
} from '@cadence-detect/test-support';

/** Above what a JavaScript string can hold (about 512 MiB): read whole, such a blob ends the process. */
const HUGE_BYTES = 560 * 1024 * 1024;

/** Writes a blob of `bytes` bytes of one letter into `dir`'s objects (git compresses it to about a megabyte). */
function writeHugeBlob(dir: string, bytes: number): Promise<string> {
  return new Promise((resolve, reject) => {
    // zlib's fastest level: the blob is the same object, written in a third of the time.
    const git = spawn('git', ['-c', 'core.compression=1', 'hash-object', '-w', '--stdin'], {
      cwd: dir,
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    let id = '';
    git.stdout.setEncoding('utf8').on('data', (chunk: string) => (id += chunk));
    git.on('error', reject);
    git.on('close', (code) => (code === 0 ? resolve(id.trim()) : reject(new Error(`hash-object exited ${code}`))));
    const block = Buffer.alloc(1024 * 1024, 0x61);
    let left = bytes / block.length;
    const write = (): void => {
      while (left > 0) {
        left--;
        if (!git.stdin.write(block)) {
          git.stdin.once('drain', write);
          return;
        }
      }
      git.stdin.end();
    };
    write();
  });
}

interface JobBody {
  id: string;
  status: string;
  error_code: string | null;
  result?: { assessment: string; lines_skipped?: string; lines?: { records?: { skipped_reasons: string[] } } };
}

/**
 * A small repository whose files are one 560 MB blob of one letter under three names: an Agent
 * Trace file, a `-diff` text file, and (in a second repository) a nested `.gitattributes`. Every
 * blob Cadence reads goes through one bounded reader: these are skipped with their reasons, and
 * the verdict comes out as usual, from the CLI, the server's analysis threads and `cadence worker`.
 */
describe('hostile blobs never end an analysis (a 560 MB blob of one byte, about a megabyte compressed)', function () {
  this.timeout(240_000);
  let work: TempDir;
  let blobs: string;
  let attributes: string;
  let human: string;
  let served: string;
  let daemon: GitDaemon;

  before(async () => {
    work = await makeTempDir('cadence-hostile-blobs-');
    blobs = path.join(work.path, 'blobs');
    await mkdir(blobs);
    const repo = await createRepository(blobs, humanHistory(6));
    const huge = await writeHugeBlob(blobs, HUGE_BYTES);
    await repo.commit({
      message: 'Add the data files',
      date: Date.UTC(2024, 3, 1) / 1000,
      files: { '.gitattributes': 'data/notes.txt -diff\n' },
    });
    const place = async (dir: string, file: string): Promise<void> => {
      await runGit(dir, ['update-index', '--add', '--cacheinfo', `100644,${huge},${file}`]);
    };
    await place(blobs, '.agent-trace/session.jsonl');
    await place(blobs, 'data/notes.txt');
    await runGit(blobs, ['commit', '-q', '-m', 'Add the session record and the notes']);
    attributes = path.join(work.path, 'attributes');
    // No checkout: the blob is never written out as a file.
    await runGit(work.path, ['clone', '-q', '--no-checkout', blobs, attributes]);
    await runGit(attributes, ['read-tree', 'HEAD']);
    await place(attributes, 'docs/.gitattributes');
    // A day of its own: two commits of one author in one second are compared as possible copies
    // (`git patch-id`), and git reads an added binary file whole to diff it, seconds for each of
    // the three 560 MB files, which is not what this test is about.
    const nextDay = '2024-04-02T12:00:00Z';
    await runGit(
      attributes,
      ['-c', 'user.name=Ada', '-c', 'user.email=ada@example.test', 'commit', '-q', '-m', 'Add the docs attributes'],
      { GIT_AUTHOR_DATE: nextDay, GIT_COMMITTER_DATE: nextDay },
    );
    human = path.join(work.path, 'human');
    await mkdir(human);
    await createRepository(human, humanHistory(8));
    served = path.join(work.path, 'served');
    await mkdir(served);
    await exportRepository(served, 'acme/blobs.git', blobs);
    // Packed once: git daemon then sends the blob as it is stored, where a loose blob is compressed
    // again for every fetch.
    await runGit(path.join(served, 'acme/blobs.git'), ['-c', 'pack.compression=1', 'repack', '-a', '-d', '-q']);
    await exportRepository(served, 'acme/human.git', human);
    daemon = await startGitDaemon(served);
  });
  after(async () => {
    await daemon?.close();
    await work?.remove();
  });

  /** The CLI's JSON result for `dir`: exit 0 and a verdict. */
  async function analyzed(dir: string): Promise<NonNullable<JobBody['result']>> {
    const out = path.join(work.path, `${path.basename(dir)}.json`);
    const run = await runCadence(['analyze', dir, '-o', out], { cwd: work.path });
    expect(run.code, run.stderr).to.equal(0);
    const result = JSON.parse(await readFile(out, 'utf8')) as NonNullable<JobBody['result']>;
    expect(result.assessment).to.be.a('string');
    return result;
  }

  it('cadence analyze: a verdict and exit 0, the trace file skipped with its reason, the -diff file counted as binary', async () => {
    const result = await analyzed(blobs);
    expect(result.lines, result.lines_skipped).to.be.an('object');
    expect(result.lines!.records!.skipped_reasons.join('\n')).to.match(
      /\.agent-trace\/session\.jsonl: 560 MB, above the 16 MB/,
    );
  });

  it('cadence analyze: an oversized .gitattributes skips the line counts with the reason, the verdict stands', async () => {
    const result = await analyzed(attributes);
    expect(result.lines_skipped).to.match(/docs\/\.gitattributes is 560 MB, above the 1 MB/);
  });

  /** The hostile repository's job, then an ordinary one: both complete. */
  async function bothJobsComplete(server: ServerProcess): Promise<void> {
    for (const name of ['acme/blobs.git', 'acme/human.git']) {
      const job = await server.json<JobBody>('/api/analyze/repository', jsonPost({ url: daemon.url(name) }));
      expect(job.status, JSON.stringify(job.body)).to.equal(202);
      const done = await waitForJob<JobBody>(server, job.body.id, 90_000);
      expect(done, `${name}: ${JSON.stringify(done)}`).to.include({ status: 'completed' });
    }
  }

  it('the server: the job completes, and so does the next one on the same analysis thread', async () => {
    const dir = await makeTempDir('cadence-hostile-blobs-server-');
    const server = await startCadenceServer({
      cwd: dir.path,
      config: { security: { allowed_networks: ['127.0.0.0/8'] } },
      args: ['--workers', '1'],
      env: { CADENCE_QUEUE_BACKEND: 'memory' },
    });
    try {
      await bothJobsComplete(server);
    } finally {
      await server.stop();
      await dir.remove();
    }
  });

  it('cadence worker (Redis): the job completes and the worker runs the next one', async () => {
    const redis = await startRedisServer();
    const dir = await makeTempDir('cadence-hostile-blobs-worker-');
    const env = {
      CADENCE_QUEUE_BACKEND: 'redis',
      CADENCE_REDIS_URL: redis.url,
      CADENCE_REDIS_KEY_PREFIX: 'hostile-blobs',
    };
    await writeFile(path.join(dir.path, 'cadence-server.yaml'), 'security:\n  allowed_networks: ["127.0.0.0/8"]\n');
    const server = await startCadenceServer({ cwd: dir.path, env, args: ['--workers', '0'] });
    const worker = await startCadenceWorker({ cwd: dir.path, env });
    try {
      await bothJobsComplete(server);
      expect(worker.child.exitCode).to.equal(null);
    } finally {
      await worker.stop();
      await server.stop();
      await redis.close();
      await dir.remove();
    }
  });
});
