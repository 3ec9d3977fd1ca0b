import { expect } from 'chai';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { importRecorder, makeTempDir, type ImportRecorder, type TempDir } from '@cadence-detect/test-support';

const here = path.dirname(fileURLToPath(import.meta.url));

/**
 * Every analysis thread imports its half of the pool: loading the HTTP server there (Koa, the
 * router, BullMQ, the forge clients) cost each thread about 0.4 s more CPU at its start. A real
 * Node process imports each entry with an import recorder loaded.
 */
describe('the analysis thread\u2019s entry (@cadence-detect/server/analysis-thread)', function () {
  this.timeout(30_000);
  let work: TempDir;
  let recorder: ImportRecorder;
  before(async () => {
    work = await makeTempDir('cadence-thread-imports-');
    recorder = await importRecorder(work.path);
  });
  after(() => work.remove());

  async function importsOf(specifier: string): Promise<string[]> {
    await recorder.clear();
    // Run from the server package, where its own name resolves as a dependant's would.
    await promisify(execFile)(
      process.execPath,
      ['--input-type=module', '-e', `await import(${JSON.stringify(specifier)});`],
      { cwd: path.join(here, '..'), env: { ...process.env, ...recorder.env } },
    );
    return recorder.urls();
  }

  it('loads the pool without the HTTP server, where the package index loads all of it', async () => {
    // Koa and its router come as the server's vendor module (one file); BullMQ and the forge clients as themselves.
    const heavy = /\/node_modules\/(koa|@koa\/router|bullmq|@octokit|@gitbeaker)\/|\/dist\/vendor\/koa\.js$/;
    const thread = await importsOf('@cadence-detect/server/analysis-thread');
    expect(thread.some((url) => url.endsWith('/dist/jobs/analysis-threads.js'))).to.equal(true);
    expect(thread.filter((url) => heavy.test(url))).to.deep.equal([]);
    // The contrast that keeps the check honest: the index does load them.
    const index = await importsOf('@cadence-detect/server');
    expect(index.some((url) => heavy.test(url))).to.equal(true);
  });
});
