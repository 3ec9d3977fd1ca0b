import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { makeTempDir, type TempDir } from '@cadence/test-support';

const here = path.dirname(fileURLToPath(import.meta.url));

/**
 * Every analysis thread imports its half of the pool: loading the HTTP server there (Koa, the
 * router, BullMQ, the forge clients) cost each thread about a second of CPU at its start. A module
 * hook in a real Node process records every URL that import resolves.
 */
describe('the analysis thread\u2019s entry (@cadence/server/analysis-thread)', function () {
  this.timeout(30_000);
  let work: TempDir;
  before(async () => {
    work = await makeTempDir('cadence-thread-imports-');
  });
  after(() => work.remove());

  async function importsOf(specifier: string): Promise<string[]> {
    const log = path.join(work.path, 'imports.log');
    const hooks = path.join(work.path, 'hooks.mjs');
    await writeFile(hooks, `import { appendFileSync } from 'node:fs';\nexport async function resolve(s, c, next) { const r = await next(s, c); appendFileSync(${JSON.stringify(log)}, r.url + '\\n'); return r; }\n`);
    await writeFile(log, '');
    const script = `import { register } from 'node:module'; register(${JSON.stringify(pathToFileURL(hooks).href)}); await import(${JSON.stringify(specifier)});`;
    // Run from the server package, where its own name resolves as a dependant's would.
    await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script], { cwd: path.join(here, '..') });
    return (await readFile(log, 'utf8')).split('\n').filter(Boolean);
  }

  it('loads the pool without the HTTP server, where the package index loads all of it', async () => {
    const heavy = /\/node_modules\/(koa|@koa\/router|bullmq|@octokit|@gitbeaker)\//;
    const thread = await importsOf('@cadence/server/analysis-thread');
    expect(thread.some((url) => url.endsWith('/dist/jobs/analysis-threads.js'))).to.equal(true);
    expect(thread.filter((url) => heavy.test(url))).to.deep.equal([]);
    // The contrast that keeps the check honest: the index does load them.
    const index = await importsOf('@cadence/server');
    expect(index.some((url) => heavy.test(url))).to.equal(true);
  });
});
