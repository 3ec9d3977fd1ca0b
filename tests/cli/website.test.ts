import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import {
  makeTempDir,
  runCadence,
  startHttpServer,
  type TempDir,
  type TestHttpServer,
} from '@cadence-detect/test-support';

const page = readFileSync(
  new URL('../../plugins/website-signature/test/fixtures/ai-listicle.html', import.meta.url),
  'utf8',
);

describe('cadence analyze on a website (the real CLI process)', function () {
  this.timeout(60_000);
  let work: TempDir;
  let site: TestHttpServer;
  before(async () => {
    work = await makeTempDir('cadence-cli-web-');
    site = await startHttpServer((req, res) => {
      if (req.url === '/post') {
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end(page);
      } else {
        res.writeHead(404);
        res.end();
      }
    });
  });
  after(async () => {
    await site.close();
    await work.remove();
  });

  it('tells a website from a repository (git does not answer) and reports the page', async () => {
    const run = await runCadence(['analyze', site.url('/post'), '--json'], { cwd: work.path });
    expect(run.code, run.stderr).to.equal(0);
    const result = JSON.parse(run.stdout) as { source_type: string; assessment: string; overall_score: number };
    expect(result.source_type).to.equal('web');
    expect(result.assessment).to.equal('Likely AI-Generated');
  });

  it('takes --kind website and exits 1 with the code when the page fails', async () => {
    const missing = await runCadence(['analyze', site.url('/missing'), '--kind', 'website'], { cwd: work.path });
    expect(missing.code).to.equal(1);
    expect(missing.stderr).to.contain('ERR_HTTP_STATUS');
    const text = await runCadence(['analyze', site.url('/post'), '--kind', 'website'], { cwd: work.path });
    expect(text.stdout).to.match(/^Verdict: .*\nWebsite: http:\/\/127\.0\.0\.1/);
  });
});
