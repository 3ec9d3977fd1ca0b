import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import {
  makeTempDir,
  startCadenceServer,
  startHttpServer,
  waitForJob,
  type ServerProcess,
  type TempDir,
  type TestHttpServer,
} from '@cadence-detect/test-support';
import { readStream } from './fixtures.js';

const fixture = (name: string): string =>
  readFileSync(new URL(`../../plugins/website-signature/test/fixtures/${name}`, import.meta.url), 'utf8');

interface WebsiteJob {
  id: string;
  status: string;
  error_code: string | null;
  result?: {
    overall_score: number;
    assessment: string;
    strategies_triggered: number;
    source_type: string;
    url: string;
  };
}

describe('server: website analysis', function () {
  this.timeout(60_000);
  let work: TempDir;
  let server: ServerProcess;
  let site: TestHttpServer;
  let privateSite: TestHttpServer;

  before(async () => {
    work = await makeTempDir('cadence-website-');
    privateSite = await startHttpServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(fixture('human-post.html'));
    }, '127.0.0.1');
    site = await startHttpServer((req, res) => {
      if (req.url === '/generated') {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.end(fixture('ai-listicle.html'));
      } else if (req.url === '/plain-docs') {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.end(fixture('plain-docs.html'));
      } else if (req.url === '/to-private') {
        res.writeHead(302, { location: privateSite.url('/') });
        res.end();
      } else {
        res.writeHead(404);
        res.end();
      }
    }, '127.0.0.2');
    server = await startCadenceServer({ cwd: work.path, config: { security: { allowed_networks: ['127.0.0.2/32'] } } });
  });
  after(async () => {
    await server?.stop();
    await site?.close();
    await privateSite?.close();
    await work?.remove();
  });

  const analyze = async (url: string): Promise<WebsiteJob> => {
    const accepted = await server.json<{ id: string }>('/api/analyze/website', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ url }),
    });
    expect(accepted.status).to.equal(202);
    return waitForJob<WebsiteJob>(server, accepted.body.id);
  };

  it('judges a generated-style page Likely AI-Generated (>= 0.7) and a plain documentation page Likely Human-Written (< 0.4)', async () => {
    const generated = await analyze(site.url('/generated'));
    expect(generated.status, JSON.stringify(generated)).to.equal('completed');
    expect(generated.result!.overall_score).to.be.at.least(0.7);
    expect(generated.result).to.include({ assessment: 'Likely AI-Generated', source_type: 'web' });
    const human = await analyze(site.url('/plain-docs'));
    expect(human.result!.overall_score).to.be.below(0.4);
    expect(human.result!.assessment).to.equal('Likely Human-Written');
  });

  it('refuses a redirect to a private address with the guard on, and a 404 page with ERR_HTTP_STATUS', async () => {
    expect(await analyze(site.url('/to-private'))).to.include({ status: 'failed', error_code: 'ERR_PRIVATE_ADDRESS' });
    expect(await analyze(privateSite.url('/'))).to.include({ status: 'failed', error_code: 'ERR_PRIVATE_ADDRESS' });
    expect(await analyze(site.url('/missing'))).to.include({ status: 'failed', error_code: 'ERR_HTTP_STATUS' });
  });

  it('keeps credentials of a page URL out of the job and its result', async () => {
    const job = await analyze(site.url('/generated').replace('http://', 'http://reader:pa55-5ecret@'));
    expect(job.status, JSON.stringify(job)).to.be.oneOf(['completed', 'failed']);
    const views = [JSON.stringify(job), await (await server.request('/jobs?limit=100')).text()];
    for (const view of views) expect(view).not.to.contain('pa55-5ecret');
  });

  it('streams start, fetch, parse, strategy… and complete with strategies_triggered', async () => {
    const events = await readStream(
      `${server.url}/api/stream/website?url=${encodeURIComponent(site.url('/generated'))}`,
    );
    const names = events.map((e) => e.event);
    expect(names[0]).to.equal('start');
    expect(names.indexOf('fetch')).to.be.above(0);
    expect(names.indexOf('parse')).to.be.above(names.indexOf('fetch'));
    expect(names.filter((n) => n === 'strategy').length).to.be.at.least(5);
    expect(names.at(-1)).to.equal('complete');
    const parse = events.find((e) => e.event === 'parse')!;
    expect(parse.elements).to.be.a('number').and.above(10);
    const strategy = events.find((e) => e.event === 'strategy')!;
    expect(strategy).to.include.keys('name', 'score');
    const complete = events.at(-1)!;
    expect(complete.strategies_triggered).to.be.a('number').and.at.least(3);
    expect(complete.overall_score).to.be.at.least(0.7);
  });
});
